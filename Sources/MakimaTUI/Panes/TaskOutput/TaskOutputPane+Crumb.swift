extension TaskOutputPane {
    /// `TASK Cache heartbeats` in the NAV// breadcrumbs.
    public var crumb: Crumb { Crumb("TASK", model.title) }
}
