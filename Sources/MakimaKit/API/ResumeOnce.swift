import Synchronization

/// Resumes a continuation exactly once, whichever comes first: the worker thread's result or
/// the task's cancellation (which may even arrive before the continuation exists).
final class ResumeOnce<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Value, Error>)
        case early(Result<Value, Error>)
        case done
    }
    private let state = Mutex<State>(.empty)

    func attach(_ continuation: CheckedContinuation<Value, Error>) { arrive(.waiting(continuation)) }

    func resume(with result: Result<Value, Error>) { arrive(.early(result)) }

    /// The first of the two to arrive waits in `state`; the second resumes the continuation
    /// with the result (outside the lock). Anything after that is ignored.
    private func arrive(_ arrival: State) {
        let meeting: (CheckedContinuation<Value, Error>, Result<Value, Error>)? = state.withLock { s in
            switch (s, arrival) {
            case (.empty, _):
                s = arrival
                return nil
            case (.waiting(let c), .early(let r)), (.early(let r), .waiting(let c)):
                s = .done
                return (c, r)
            default: return nil
            }
        }
        if let (continuation, result) = meeting { continuation.resume(with: result) }
    }
}
