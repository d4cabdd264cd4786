import MakimaKit

extension SignInController {
    /// The keys this controller answers (`KeyMap.standard` composes them): `K`, and the sign-in
    /// pane's (the pane keeps its fields; checking them is this controller's).
    nonisolated static let keyBindings: [KeyBinding] = [
        KeyBinding(
            [.char("K")], .request(.signIn(.enterKey)), "enter a new API key (after the server refused the key)",
            context: .global),
        KeyBinding(
            [.ctrl("k")], .keyHelp,
            "where do I get a key? shows and copies <server>/settings",
            context: .signIn, footer: "get a key"),
        KeyBinding(
            [.ctrl("y")], .confirmInsecure, "allow plain http:// to another host (insecure mode)",
            context: .signIn),
        KeyBinding([.ctrl("u")], .clearField, "clear the field", context: .signIn, footer: "clear"),
    ]
}
