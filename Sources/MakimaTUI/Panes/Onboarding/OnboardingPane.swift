import MakimaKit

/// Signing in inside the dashboard: an unconfigured start opens here, sign out comes back
/// here, and a refused key opens it on step 2 in place. The pane only edits its model; the
/// checks (health, authenticated call) are the controller's (`SignInController`), which
/// runs them off the UI thread and writes their outcome back into the model.
public struct OnboardingPane: Pane {
    public var model: OnboardingModel

    public init(model: OnboardingModel) { self.model = model }

    public var id: PaneID { .onboarding }
    public var section: PaneID { .home }
    public var title: String { "SIGN IN" }
    public var isTopLevel: Bool { false }
    /// Always typing: every printable key goes into the field.
    public var isEditingText: Bool { true }
    public var typingContexts: [KeyContext] { [.signIn] }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        switch action {
        case .keyHelp: return .request(.signIn(.keyHelp))
        case .confirmInsecure:
            guard model.confirmInsecureFor != nil, model.busy == nil else { return .ignored }
            model.insecureAllowed = true
            model.confirmInsecureFor = nil
            return .request(.signIn(.submit))
        case .clearField:
            model.clearField()
            return .handled
        default: return .ignored
        }
    }

    public mutating func edit(_ edit: TextEdit) -> PaneResponse {
        switch edit {
        case .insert(let c): model.insert(c)
        case .deleteBackward: model.deleteBackward()
        case .submit: return model.busy == nil ? .request(.signIn(.submit)) : .ignored
        case .cancel:
            if model.stepBack() { return .handled }
            return model.busy == nil ? .request(.signIn(.close)) : .ignored
        case .complete: return .ignored
        }
        return .handled
    }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        guard !region.isEmpty else { return }
        buffer.fill(region, style: .plain)
        PaneHeader.render(
            title: model.serverFixed ? "NEW API KEY" : "SIGN IN", term: nil, detail: nil, into: &buffer,
            row: region.row(0), context: context)
        let x = region.x + 2
        let maxX = region.maxX - 1
        var y = region.y + 2
        // One blank row after each section, an empty one included.
        let sections = [
            [stepsLine(context)], fieldLines(context), statusLines(width: maxX - x), hintLines(context),
        ]
        for section in sections {
            for line in section where y < region.maxY {
                buffer.write(
                    line.truncated(to: max(0, maxX - x), ellipsis: context.glyphs.ellipsis), x: x, y: y, maxX: maxX)
                y += 1
            }
            y += 1
        }
    }

    /// `01 SERVER → 02 KEY`, the current step lit.
    private func stepsLine(_ context: RenderContext) -> StyledLine {
        var steps = StyledLine()
        steps.append("01 SERVER", stepStyle(.server))
        steps.append(context.glyphs.isUnicode ? " → " : " -> ", CellStyle(fg: .foregroundMuted))
        steps.append("02 KEY", stepStyle(.key))
        return steps
    }

    /// The server being typed (or the one the key is for) and, on step 2, the masked key.
    private func fieldLines(_ context: RenderContext) -> [StyledLine] {
        let cursor = context.glyphs.isUnicode ? "▏" : "_"
        var serverLine = StyledLine("SERVER   ", CellStyle(fg: .foregroundMuted))
        guard model.step == .key else {
            let text = UntrustedText.clean(model.server)
            serverLine.append(text, CellStyle(fg: model.serverPrefilled ? .foregroundMuted : .foreground))
            serverLine.append(cursor, CellStyle(fg: .accent))
            return [serverLine]
        }
        serverLine.append(UntrustedText.clean(model.serverForKey), CellStyle(fg: .foreground))
        var keyLine = StyledLine("API KEY  ", CellStyle(fg: .foregroundMuted))
        let masked =
            context.glyphs.isUnicode ? model.maskedKey : model.maskedKey.replacingOccurrences(of: "•", with: "*")
        keyLine.append(masked, CellStyle(fg: .foreground))
        keyLine.append(cursor, CellStyle(fg: .accent))
        return [serverLine, keyLine]
    }

    /// The check running, the problem it found, the insecure-mode question.
    private func statusLines(width: Int) -> [StyledLine] {
        var lines: [StyledLine] = []
        if let busy = model.busy { lines.append(StyledLine(busy, CellStyle(fg: .warn))) }
        if let problem = model.problem {
            lines += wrap(oneLine(problem), width: width).map { StyledLine($0, CellStyle(fg: .danger)) }
        }
        if let host = model.confirmInsecureFor {
            lines.append(
                StyledLine("Ctrl-Y: use plain http:// with \(host) anyway (insecure mode)", CellStyle(fg: .warn)))
        }
        return lines
    }

    /// What to type on this step and where a key comes from.
    private func hintLines(_ context: RenderContext) -> [StyledLine] {
        let muted = CellStyle(fg: .foregroundMuted)
        switch model.step {
        case .server:
            return [
                StyledLine("Enter checks the server (GET /api/v1/health).", muted),
                StyledLine(
                    "Empty means \(ServerURL.defaultServer); a copied \(context.glyphs.ellipsis)/api/v1 address works too.",
                    muted),
            ]
        case .key:
            var help = StyledLine("Where do I get a key?  ", CellStyle(fg: .foreground))
            help.append("Ctrl-K", CellStyle(fg: .accent, attributes: .bold))
            help.append(" shows and copies \(UntrustedText.clean(model.keySettingsURL))", muted)
            var lines = [StyledLine("Paste the API key (mk_\(context.glyphs.ellipsis)), then Enter.", muted), help]
            if let info = model.info { lines.append(StyledLine(info, CellStyle(fg: .ok))) }
            return lines
        }
    }

    private func stepStyle(_ step: OnboardingModel.Step) -> CellStyle {
        model.step == step ? CellStyle(fg: .accent, attributes: .bold) : CellStyle(fg: .foregroundMuted)
    }

    private func wrap(_ text: String, width: Int) -> [String] {
        guard width > 10 else { return [text] }
        var out: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && CellWidth.of(current) + 1 + CellWidth.of(String(word)) > width {
                out.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { out.append(current) }
        return Array(out.prefix(4))
    }
}
