"""Hardware behind small interfaces: GPIO buttons and lights (gpiozero), cameras.

Only this package imports gpiozero, picamera2 and lgpio, and picamera2/lgpio only lazily.
"""
