"""Vision: pure functions of an image (dice and room tiles), and synthetic test images."""
