"""The drivers on the libraries' fakes and our chip models: readers, keypad, buzzer, display, serial."""
