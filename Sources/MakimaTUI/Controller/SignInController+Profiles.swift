import MakimaKit

extension SignInController {
    /// `:profile NAME`: the dashboard moves to that stored profile's mesh in place (its key is
    /// checked first; the engine reconnects, the stores and the cache become that profile's).
    /// On any failure the mesh on screen stays, and a toast says why.
    func switchToProfile(named name: String) {
        guard let service else {
            return toast(NoticeLine(Self.noSignIn, level: .warn))
        }
        guard !busy else { return }
        guard service.profileNames.contains(name) else {
            let known = service.profileNames.joined(separator: ", ")
            return toast(
                NoticeLine("no profile named \(name)" + (known.isEmpty ? "" : " (stored: \(known))"), level: .warn))
        }
        toast(NoticeLine("switching to \(name) …", level: .ok))
        whileBusy {
            service.storedSignIn(profileNamed: name, done: $0)
        } answered: { me, result in
            switch result {
            case nil:
                me.toast(NoticeLine("no key stored for \(name): makima-tui login --name \(name)", level: .warn))
            case .failure(let problem)?:
                me.toast(NoticeLine("\(name): \(problem.description)", level: .danger))
            case .success(let signedIn)?:
                me.adopt(signedIn, message: "switched to \(name) (\(signedIn.client.profile.displayHost))")
            }
            me.profileNamesChanged(service.profileNames)
        }
    }
}
