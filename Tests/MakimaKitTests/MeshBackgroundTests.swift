import Foundation
import Synchronization
import TestSupport
import Testing

@testable import MakimaKit

/// The background reads of the meshes not on screen, with an injected clock: when each mesh
/// is read (`MeshSchedule`), what a read announces (`MeshAlerts`), how a read is counted
/// (`MeshGlance`) and the reader's thread driven by the test's clock.
@Suite struct MeshBackgroundTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func everyMeshIsDueAtOnceThenOnceAMinute() {
        var s = MeshSchedule(names: ["staging", "prod"], now: t0)
        #expect(s.next?.name == "staging")
        #expect(s.next?.at == t0)
        s.record("staging", answered: true, now: t0)
        #expect(s.next?.name == "prod")
        s.record("prod", answered: true, now: t0.addingTimeInterval(1))
        #expect(s.due["staging"] == t0.addingTimeInterval(60))
        #expect(s.next?.name == "staging")
    }

    @Test func thePaceAnOperatorSetsIsHeldToItsRange() {
        #expect(MeshSchedule.pace(setting: nil) == 60)
        #expect(MeshSchedule.pace(setting: "") == 60)
        #expect(MeshSchedule.pace(setting: "soon") == 60)
        #expect(MeshSchedule.pace(setting: "15") == 15)
        #expect(MeshSchedule.pace(setting: " 90 ") == 90)
        #expect(MeshSchedule.pace(setting: "1") == 10, "never faster than every 10 s")
        #expect(MeshSchedule.pace(setting: "-5") == 10)
        #expect(MeshSchedule.pace(setting: "99999999999999999999") == 60, "overflows Int: not a number")
        #expect(MeshSchedule.pace(setting: "86400") == 3600)
    }

    @Test func aSetPaceSpacesTheReadsAndNeverShortensTheBackoff() {
        var s = MeshSchedule(names: ["staging"], now: t0, pace: 15)
        s.record("staging", answered: true, now: t0)
        #expect(s.due["staging"] == t0.addingTimeInterval(15))
        s.record("staging", answered: false, now: t0)
        #expect(s.due["staging"] == t0.addingTimeInterval(60), "a failure still waits a minute first")
        var slow = MeshSchedule(names: ["prod"], now: t0, pace: 600)
        slow.record("prod", answered: false, now: t0)
        #expect(slow.due["prod"] == t0.addingTimeInterval(600), "a backoff is never sooner than the pace")
    }

    @Test func aFailingMeshBacksOffOneTwoFourEightThenFifteenMinutes() {
        var s = MeshSchedule(names: ["dead"], now: t0)
        var waits: [TimeInterval] = []
        var now = t0
        for _ in 0..<7 {
            s.record("dead", answered: false, now: now)
            let at = s.due["dead"]!
            waits.append(at.timeIntervalSince(now))
            now = at
        }
        #expect(waits == [60, 120, 240, 480, 900, 900, 900])
        // An answer brings it back to the minute's pace.
        s.record("dead", answered: true, now: now)
        #expect(s.due["dead"] == now.addingTimeInterval(60))
        // Any count of failures is bounded (no shift overflows).
        #expect(MeshSchedule.delay(afterFailures: Int.max) == 900)
        #expect(MeshSchedule.delay(afterFailures: 64) == 900)
    }

    @Test func newTargetsKeepTheTurnsOfTheMeshesAlreadyRead() {
        var old = MeshSchedule(names: ["a", "b"], now: t0)
        old.record("a", answered: false, now: t0)
        var s = MeshSchedule(names: ["a", "c"], now: t0.addingTimeInterval(5))
        s.carry(from: old)
        #expect(s.due["a"] == t0.addingTimeInterval(60))
        #expect(s.failures["a"] == 1)
        #expect(s.due["c"] == t0.addingTimeInterval(5))
        #expect(s.due["b"] == nil)
    }

    @Test func eachTurnAsksForTheNextFigureAnsweredOrNot() {
        var s = MeshSchedule(names: ["staging"], now: t0)
        var asked: [MeshFigure] = []
        var now = t0
        for answered in [true, true, false, true] {
            let next = s.next!
            asked.append(next.figure)
            now = next.at
            s.record("staging", answered: answered, now: now)
        }
        #expect(asked == [.running, .questions, .failures, .running])
        // The figure due is kept across new targets.
        var kept = MeshSchedule(names: ["staging", "prod"], now: now)
        kept.carry(from: s)
        #expect(kept.figures["staging"] == .questions)
        #expect(kept.next?.name == "prod" && kept.next?.figure == .running)
    }

    func glance(questions: [String] = [], failures: [String: String] = [:]) -> MeshGlance {
        MeshGlance(
            questions: questions.count, questionKeys: Dictionary(uniqueKeysWithValues: questions.map { ($0, "d") }),
            failureTitles: failures)
    }

    @Test func theFirstReadOnlySetsTheBaseline() {
        var alerts = MeshAlerts()
        #expect(alerts.observe("staging", glance(questions: ["d1/q1"], failures: ["t1": "build"])).isEmpty)
        #expect(alerts.observe("staging", glance(questions: ["d1/q1"], failures: ["t1": "build"])).isEmpty)
    }

    @Test func aNewQuestionOrFailureIsSaidOnceNamingTheMesh() {
        var alerts = MeshAlerts()
        _ = alerts.observe("staging", glance(questions: ["d1/q1"]))
        #expect(alerts.observe("staging", glance(questions: ["d1/q1", "d2/q2"])) == ["staging: 1 new question"])
        #expect(alerts.observe("staging", glance(questions: ["d1/q1", "d2/q2"])).isEmpty)
        #expect(
            alerts.observe("staging", glance(questions: ["d3/q3", "d4/q4"])) == ["staging: 2 new questions"])
        _ = alerts.observe("prod", glance())
        #expect(
            alerts.observe("prod", glance(failures: ["t9": "nightly build"])) == ["prod: task failed: nightly build"])
        #expect(
            alerts.observe("prod", glance(failures: ["t9": "x", "t10": "y", "t11": "z"])) == ["prod: 2 tasks failed"])
        // Another mesh's baseline is its own.
        #expect(alerts.observe("eu", glance(questions: ["d1/q1"])).isEmpty)
    }

    @Test func eachFiguresFirstReadSetsItsOwnBaseline() {
        var alerts = MeshAlerts()
        // Failures read first: the questions are not known yet.
        #expect(alerts.observe("staging", MeshGlance(failureTitles: ["t1": "build"])).isEmpty)
        // The questions' first read (one waiting already) announces nothing, nor do the
        // failures known before.
        var g = MeshGlance(questionKeys: ["d1/q1": "d"], failureTitles: ["t1": "build"])
        #expect(alerts.observe("staging", g).isEmpty)
        g.questionKeys = ["d1/q1": "d", "d2/q2": "d"]
        #expect(alerts.observe("staging", g) == ["staging: 1 new question"])
        g.failureTitles = ["t1": "build", "t2": "deploy"]
        #expect(alerts.observe("staging", g) == ["staging: task failed: deploy"])
    }

    @Test func aMeshThatWasShownStartsAgainFromABaseline() {
        var alerts = MeshAlerts()
        _ = alerts.observe("staging", glance())
        alerts.forget("staging")
        #expect(alerts.observe("staging", glance(questions: ["d1/q1"])).isEmpty)
    }

    @MainActor @Test func aReadingFilesItsFigureWithTheSummaryRuleAndKeepsTheOthers() {
        let running = MeshReading(
            figure: .running,
            lists: [
                (
                    .tasks(status: .running, contractID: nil),
                    .tasks([
                        MeshTask(id: "a", title: "a", status: .running),
                        MeshTask(id: "b", title: "b", status: .running),
                    ])
                )
            ], more: true, readAt: t0)
        var g = MeshGlance(running)
        #expect(g.running == 2 && g.atLeast == [.running])
        // Not read yet: unknown, never 0.
        #expect(g.questions == nil && g.questionKeys == nil && g.failedLastHour == nil)
        g.file(
            MeshReading(
                figure: .questions,
                lists: [
                    (
                        .directives(pendingOnly: true),
                        .directives([
                            Directive(
                                id: "d1", title: "Ship it", status: "active", hasPendingQuestion: true,
                                pendingQuestion: SupervisorQuestion(id: "q1", text: "ok?"))
                        ])
                    )
                ], readAt: t0))
        #expect(g.questions == 1 && g.questionKeys == ["d1/q1": "Ship it"])
        let failed = MeshTask(id: "f1", title: "nightly build", status: .failed)
        g.file(MeshReading(figure: .failures, failures: [failed], readAt: t0))
        #expect(g.failedLastHour == 1 && g.failureTitles == ["f1": "nightly build"])
        #expect(g.running == 2 && g.questions == 1)
        // The running tasks read again, all in one page this time.
        g.file(MeshReading(figure: .running, readAt: t0))
        #expect(g.running == 0 && g.atLeast.isEmpty && g.failedLastHour == 1)
    }

    // MARK: The reader's thread

    func profile(_ name: String, key: Bool = true) throws -> MeshProfile {
        MeshProfile(profile: try ServerProfile(label: name, server: "https://\(name).example"), keyStored: key)
    }

    @Test func theReaderReadsEachMeshAtOnceThenWhenTheClockSays() async throws {
        let clock = TestClock(t0)
        let (reports, sink) = AsyncStream.makeStream(of: String.self)
        let reader = BackgroundMeshReader(
            clock: { clock.read },
            read: { mesh, figure in
                if mesh.name == "dead" { throw MeshReadFailure("connection refused") }
                return MeshReading(figure: figure, readAt: clock.read)
            },
            deliver: { report in
                switch report.outcome {
                case .success: sink.yield(report.name + " ok")
                case .failure(let f): sink.yield(report.name + " " + f.message)
                }
            })
        defer { reader.stop() }
        reader.setTargets([try profile("staging"), try profile("dead"), try profile("nokey", key: false)])
        reader.start()
        var it = reports.makeAsyncIterator()
        var first = [await it.next(), await it.next()].compactMap { $0 }
        first.sort()
        #expect(first == ["dead connection refused", "staging ok"])
        // A minute on: staging is due again (dead waits: its first failure backs off a minute
        // too, so both are; staging comes first, in the order given).
        clock.advance(60)
        reader.poke()
        #expect(await it.next() == "staging ok")
        #expect(await it.next() == "dead connection refused")
        // Two minutes on from there only staging is due twice before dead's second backoff (2 min) ends.
        clock.advance(60)
        reader.poke()
        #expect(await it.next() == "staging ok")
        clock.advance(60)
        reader.poke()
        let next = [await it.next(), await it.next()].compactMap { $0 }.sorted()
        #expect(next == ["dead connection refused", "staging ok"])
    }

    @Test func theReaderAsksEachMeshForOneFigureAMinuteInTurn() async throws {
        let clock = TestClock(t0)
        let (asked, sink) = AsyncStream.makeStream(of: String.self)
        let reader = BackgroundMeshReader(
            clock: { clock.read },
            read: { mesh, figure in
                sink.yield("\(mesh.name) \(figure)")
                return MeshReading(figure: figure, readAt: clock.read)
            }, deliver: { _ in })
        defer { reader.stop() }
        reader.setTargets([try profile("staging")])
        reader.start()
        var it = asked.makeAsyncIterator()
        var seen = [await it.next()]
        for _ in 0..<3 {
            clock.advance(60)
            reader.poke()
            seen.append(await it.next())
        }
        #expect(seen == ["staging running", "staging questions", "staging failures", "staging running"])
    }

    @Test func aMeshNoLongerATargetIsNotDelivered() async throws {
        let clock = TestClock(t0)
        let (reports, sink) = AsyncStream.makeStream(of: String.self)
        let (started, began) = AsyncStream.makeStream(of: Void.self)
        let gate = DispatchSemaphore(value: 0)
        let reader = BackgroundMeshReader(
            clock: { clock.read },
            read: { mesh, figure in
                if mesh.name == "old" {
                    began.yield()
                    gate.wait()
                }
                return MeshReading(figure: figure, readAt: clock.read)
            },
            deliver: { sink.yield($0.name) })
        defer { reader.stop() }
        reader.setTargets([try profile("old")])
        reader.start()
        // The read of "old" is under way; it leaves the set and "new" joins it.
        var s = started.makeAsyncIterator()
        await s.next()
        reader.setTargets([try profile("new")])
        gate.signal()
        var it = reports.makeAsyncIterator()
        #expect(await it.next() == "new")
    }
}
