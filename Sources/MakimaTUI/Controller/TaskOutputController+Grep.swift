import Foundation
import MakimaKit

/// `:grep PATTERN`: the search runs on its own serial queue (the cache's calls block on file
/// I/O), the answer comes back on the UI bus, so a keystroke never waits for it.
extension TaskOutputController {
    /// One search at a time, in the order asked; each is bounded (`CacheStore.maxSearchHits`).
    private static let grepQueue = DispatchQueue(label: "makima.grep", qos: .userInitiated)

    func showGrep(_ pattern: String) {
        chrome.grep = nil
        show(GrepPane(pattern: pattern))
        guard let cache = engines.cache else {
            return answerGrep(pattern, hits: [], failure: "no offline cache: nothing to search")
        }
        let bus = self.bus
        Self.grepQueue.async { [weak self] in
            var failure: String?
            var hits: [OutputSearchHit] = []
            do {
                hits = try cache.searchOutput(pattern)
            } catch {
                failure = "search failed: \(error)"
            }
            bus.post { [hits, failure] in self?.answerGrep(pattern, hits: hits, failure: failure) }
        }
    }

    /// The answer goes to the chrome store; the Grep pane on top is built from it (and the
    /// stores' titles and statuses) by its binding, like any detail pane.
    private func answerGrep(_ pattern: String, hits: [OutputSearchHit], failure: String?) {
        chrome.grep = GrepAnswer(pattern: pattern, hits: hits, failure: failure)
    }

    /// The Grep pane's model: its answer (nil while the search runs), with titles and statuses
    /// from the task store (a detail when fetched, else the task table's row, which the cache
    /// keeps for tasks no list on screen holds).
    func grepModel(_ pattern: String) -> GrepResultsModel? {
        guard let answer = chrome.grep, answer.pattern == pattern else { return nil }
        var known: [String: MeshTask] = [:]
        for id in Set(answer.hits.map(\.taskID)) {
            if let t = hub.tasks.task(id: id) { known[id] = t }
        }
        return GrepResultsModel.from(
            answer.hits, pattern: pattern, tasks: known, now: now(), clock: hub.connection.serverClock,
            failure: answer.failure)
    }

    /// Opens the hit's task and, once its output holds the match, puts the view on it.
    func openGrepHit(taskID: String, pattern: String, line: String) {
        open(.task(taskID))
        view?.seek = (pattern, line)
        seekGrepHit()
    }

    /// Applies a waiting seek to the output view; it waits on while no line matches yet.
    func seekGrepHit() {
        guard let id = view?.taskID, let seek = view?.seek else { return }
        var done = false
        screen.updatePanes {
            $0.update(.taskOutput, as: TaskOutputPane.self) { pane in
                if pane.model.taskID == id { done = pane.seek(pattern: seek.pattern, line: seek.line) }
            }
        }
        if done { view?.seek = nil }
    }
}

extension TaskOutputController {
    /// The keys this controller answers (`KeyMap.standard` composes them): `S` opens the
    /// command line on `grep ` (the output view's own keys are its pane's).
    nonisolated static let keyBindings: [KeyBinding] = [
        KeyBinding(
            [.char("S")], .grepPrompt, "find in every task's cached output, titles and plans (:grep)",
            context: .global)
    ]
}
