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

    func attach(_ continuation: CheckedContinuation<Value, Error>) {
        let early: Result<Value, Error>? = state.withLock { s in
            switch s {
            case .empty:
                s = .waiting(continuation)
                return nil
            case .early(let r):
                s = .done
                return r
            case .waiting, .done: return nil
            }
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<Value, Error>) {
        let waiting: CheckedContinuation<Value, Error>? = state.withLock { s in
            switch s {
            case .empty:
                s = .early(result)
                return nil
            case .waiting(let c):
                s = .done
                return c
            case .early, .done: return nil
            }
        }
        waiting?.resume(with: result)
    }
}
