"""The banker command line (click): the only place that wires core, drivers and simulators together."""
