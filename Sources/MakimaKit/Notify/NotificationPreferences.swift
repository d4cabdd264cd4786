import Foundation

/// What the operator wants to be told about, saved in the config file under
/// `settings.notifications` (`{"task_completed": true, …, "bell": true, "desktop": true}`).
/// A kind turned off gets no toast, no bell and no desktop notification (it is still listed
/// with the other notifications). Missing keys mean on.
public struct NotificationPreferences: Sendable, Equatable {
    public var taskCompleted = true
    public var taskFailed = true
    public var supervisorQuestion = true
    public var gateReady = true
    public var daemonOffline = true
    /// The terminal bell for a batch of notifications.
    public var bell = true
    /// Desktop notifications (terminal OSC 777/9, tmux status line, or notify-send).
    public var desktop = true

    public init() {}

    public func wants(_ kind: MeshNotification.Kind) -> Bool {
        switch kind {
        case .taskCompleted: return taskCompleted
        case .taskFailed: return taskFailed
        case .supervisorQuestion: return supervisorQuestion
        case .gateReady: return gateReady
        case .daemonOffline: return daemonOffline
        }
    }

    /// The notifications of the kinds that are on.
    public func filter(_ notifications: [MeshNotification]) -> [MeshNotification] {
        notifications.filter { wants($0.kind) }
    }

    /// One entry per setting: the config key, the words Settings shows, and the key path, so
    /// reading, writing and the list of toggles are described once.
    public static var fields: [(key: String, label: String, path: WritableKeyPath<NotificationPreferences, Bool>)] {
        [
            ("task_completed", "Task completed", \.taskCompleted),
            ("task_failed", "Task failed", \.taskFailed),
            ("supervisor_question", "Supervisor question", \.supervisorQuestion),
            ("gate_ready", "Completion gate ready", \.gateReady),
            ("daemon_offline", "Daemon offline holding tasks", \.daemonOffline),
            ("bell", "Bell", \.bell),
            ("desktop", "Desktop notification", \.desktop),
        ]
    }

    /// Reads the settings object; anything that is not a boolean is ignored (the default stays).
    public init(json: JSONValue?) {
        guard case .object(let o) = json else { return }
        for field in Self.fields {
            if let b = o[field.key]?.boolValue { self[keyPath: field.path] = b }
        }
    }

    public var json: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: Self.fields.map { ($0.key, JSONValue.bool(self[keyPath: $0.path])) }))
    }
}

extension AppConfig {
    public var notificationPreferences: NotificationPreferences {
        get { NotificationPreferences(json: settings["notifications"]) }
        set { settings["notifications"] = newValue.json }
    }
}
