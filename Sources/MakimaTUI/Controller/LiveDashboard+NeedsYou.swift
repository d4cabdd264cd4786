import Foundation
import MakimaKit

extension LiveDashboard {
    /// Does what the needs-you controller decided.
    func perform(_ outcome: NeedsYouController.Outcome) {
        switch outcome {
        case .open(let link): navigation.open(link)
        case .openRow(let pane, let id): navigation.openRow(pane, id)
        case .acknowledged(let item):
            saveAcknowledged()
            notificationController.toast(NoticeLine(oneLine("done: \(item.label) · \(item.text)"), level: .ok))
        case .nothing(let why): notificationController.toast(NoticeLine(why, level: .muted))
        }
    }

    /// Acknowledgements made or forgotten go to the cache (a few rows, when the operator acts
    /// or a failed task runs again), so they hold across restarts.
    func saveAcknowledged() {
        session.setNeedsYouCount(hub.needsYou.items.count)
        let unsaved = hub.needsYou.takeUnsaved()
        guard !unsaved.isEmpty, let cache else { return }
        do { try cache.setAcknowledged(unsaved) } catch {
            notificationController.toast(NoticeLine("could not keep the acknowledgement: \(error)", level: .warn))
        }
    }
}
