"""The runtime: the unit's devices, its speaker, its shell and clock, as the Pi and the simulator run them."""
