import Foundation
import MakimaKit

extension LiveDashboard {
    /// Opens what a link names, on top of the current pane.
    func open(_ link: DeepLink) {
        switch link {
        case .task(let id): openTask(id)
        case .contract, .directive: break
        }
    }
}
