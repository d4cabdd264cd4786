import Foundation
import Synchronization
import Testing

@testable import MakimaTUI

@Suite struct TerminalGateTests {
    @Test func aClosedGateRunsNoMoreWrites() {
        let gate = TerminalGate(patience: 1_000)
        var writes = 0
        #expect(gate.hold { writes += 1 })
        gate.close()
        #expect(gate.isClosed)
        #expect(!gate.hold { writes += 1 })
        #expect(writes == 1)
    }

    /// The crash path on another thread waits for the frame in progress to end: a restore in
    /// the middle of it would be undone by the rest of the frame.
    @Test func closeFromAnotherThreadWaitsForTheWriteInProgress() {
        let gate = TerminalGate(patience: 600_000)
        let inWrite = DispatchSemaphore(value: 0)
        let finishWrite = DispatchSemaphore(value: 0)
        let writeEnded = Flag()
        let closerStarted = DispatchSemaphore(value: 0)
        let closed = DispatchSemaphore(value: 0)
        let endedBeforeClose = Flag()
        Thread.detachNewThread {
            gate.hold {
                inWrite.signal()
                finishWrite.wait()
                writeEnded.set(true)
            }
        }
        inWrite.wait()
        Thread.detachNewThread {
            closerStarted.signal()
            gate.close()
            endedBeforeClose.set(writeEnded.value)
            closed.signal()
        }
        closerStarted.wait()
        finishWrite.signal()
        closed.wait()
        #expect(endedBeforeClose.value)
        #expect(gate.isClosed)
    }

    /// On the writing thread itself (a crash inside a frame) there is nothing to wait for.
    @Test func closeOnTheWritingThreadDoesNotWaitForItself() {
        let gate = TerminalGate(patience: 600_000)
        gate.adoptCurrentThread()
        var ranAfterClose = false
        gate.hold { gate.close() }
        gate.hold { ranAfterClose = true }
        #expect(gate.isClosed)
        #expect(!ranAfterClose)
    }
}

private final class Flag: Sendable {
    private let state = Atomic<Bool>(false)
    var value: Bool { state.load(ordering: .sequentiallyConsistent) }
    func set(_ on: Bool) { state.store(on, ordering: .sequentiallyConsistent) }
}
