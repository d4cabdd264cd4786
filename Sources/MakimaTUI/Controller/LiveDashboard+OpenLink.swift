import MakimaKit

extension LiveDashboard {
    /// `:open N` or a click on a link: says the URL in a toast and hands it to xdg-open through
    /// the program's `ChildLauncher` (`LinkOpener`: http and https only, clean environment, one
    /// child at a time). Only on the operator's command: nothing in the output opens anything
    /// by itself.
    func openLink(_ url: String) {
        let shown = oneLine(url)
        let notice: NoticeLine
        switch linkOpener.open(url) {
        case .opening: notice = NoticeLine("opening " + shown, level: .ok)
        case .alreadyOpening: notice = NoticeLine("already opening " + shown, level: .ok)
        case .busy: notice = NoticeLine(shown + "  (not opened: links are still opening)", level: .warn)
        case .malformed: notice = NoticeLine(shown + "  (not opened: not a well-formed web address)", level: .warn)
        case .noOpener: notice = NoticeLine(shown + "  (no xdg-open here: copy it)", level: .ok)
        case .refused(let scheme):
            let named = scheme.isEmpty ? "a link without a scheme" : "a \(scheme): link"
            notice = NoticeLine("not opened: \(named) (only http and https are opened)  " + shown, level: .warn)
        }
        notificationController.toast(notice)
    }
}
