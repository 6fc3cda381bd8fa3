"""Real devices behind the core's ports: the SQLite ledger, RFID readers, OLED, keypad, buzzer.

Vendor libraries are imported lazily, inside the classes that need them, so
importing this package never needs a Raspberry Pi.
"""
