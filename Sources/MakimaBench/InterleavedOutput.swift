import Foundation
import MakimaKit

/// Output events as a busy mesh sends them, interleaved across tasks: event `i` (from 0) goes
/// to task `i % tasks`, each task's seqs counting from 1, event ids from 1.
enum InterleavedOutput {
    static func events(
        count: Int, tasks: Int, taskID: (Int) -> String, time: ((Int) -> Date)? = nil, text: (Int) -> String
    ) -> [TaskEvent] {
        var seqs = [Int](repeating: 0, count: tasks)
        return (0..<count).map { i in
            let task = i % tasks
            seqs[task] += 1
            return TaskEvent(
                eventID: Int64(i + 1), taskID: taskID(task), seq: seqs[task], type: .output, ts: time?(i),
                payload: .output(text: text(i), stream: "assistant"))
        }
    }
}
