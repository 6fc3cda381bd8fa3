"""What the unit says, and the sink that speaks it (espeak-ng rendered and measured)."""
