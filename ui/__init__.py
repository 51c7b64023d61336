"""The Kivy touchscreen app: a view of the Table that renders state and sends Actions."""
