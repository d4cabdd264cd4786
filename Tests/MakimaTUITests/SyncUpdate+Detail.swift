@testable import MakimaKit

// An object fetched alone, as the sync engine posts it (`SyncEngine.loadDetail`).
extension SyncUpdate {
    static func task(_ task: MeshTask) -> SyncUpdate { .detail(.task(task.id), ListPayload([task])) }
    static func contract(_ contract: Contract) -> SyncUpdate {
        .detail(.contract(contract.id), ListPayload([contract]))
    }
    static func listenSession(_ session: ListenSession) -> SyncUpdate {
        .detail(.listen(session.id), ListPayload([session]))
    }
}
