"""What the table sees, hears and touches: the OLED, the buzzer, the seat buttons and LEDs, the
serial seat panel and the virtual panel's picture. It listens to the session's public updates and
sends it presses; it never reads the engine's state. See docs/hardware.md."""

from .table import KINDS, Hardware, start_hardware

__all__ = ["KINDS", "Hardware", "start_hardware"]
