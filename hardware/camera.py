"""The camera above the table: one ``Camera`` interface over three kinds of source.

- ``Picamera2Source``: the Raspberry Pi camera (picamera2, imported only when opened). Its
  ``RGB888`` format is laid out B, G, R in memory, which is OpenCV's BGR order, so frames need no
  conversion. A 640x480 preview stream feeds the dice reader; ``still()`` switches to a 1280x720
  still for reading the castle's tiles.
- ``OpenCVSource``: a USB webcam (or any ``cv2.VideoCapture`` device or URL).
- ``FolderSource``: a folder of images or a video file, for tests and demos.

``Camera`` runs the source in its own thread and always hands out the latest frame. If the source
fails (a cable pulled, a webcam unplugged) this is logged once, ``available`` turns False (the app
falls back to touch entry) and the thread keeps trying to reopen it; when it is back, that is
logged once too.

>>> import tempfile, cv2, numpy as np
>>> folder = tempfile.mkdtemp()
>>> _ = cv2.imwrite(folder + "/a.png", np.zeros((48, 64, 3), np.uint8))
>>> with Camera(FolderSource(folder)) as camera:
...     camera.wait_frame(timeout=5).image.shape
(48, 64, 3)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

log = logging.getLogger(__name__)

PREVIEW_SIZE = (640, 480)
STILL_SIZE = (1280, 720)
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class CameraError(RuntimeError):
    """A source that cannot be opened or read; the message says which and why."""


class FrameSource(Protocol):
    """What a camera back-end provides. ``read`` raises CameraError when the source is gone."""

    name: str

    def open(self) -> None: ...

    def read(self) -> np.ndarray: ...

    def still(self) -> np.ndarray: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Frame:
    """One captured BGR frame, numbered in capture order."""

    image: np.ndarray
    number: int
    time: float  # time.monotonic() at capture


class Picamera2Source:
    """The Pi camera through picamera2: preview frames at 640x480, stills at 1280x720."""

    def __init__(self, preview_size: tuple[int, int] = PREVIEW_SIZE,
                 still_size: tuple[int, int] = STILL_SIZE, camera_num: int = 0) -> None:
        self.name = f"picamera2 camera {camera_num}"
        self.preview_size = preview_size
        self.still_size = still_size
        self.camera_num = camera_num
        self._cam: Any = None
        self.preview_config: Any = None
        self.still_config: Any = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # only on a Pi; imported here so nothing else needs it
        except ImportError as err:
            raise CameraError(f"{self.name}: picamera2 is not installed ({err})") from None
        try:
            cam = Picamera2(self.camera_num)
            # RGB888 is stored B, G, R: exactly the BGR layout OpenCV expects.
            self.preview_config = cam.create_preview_configuration(
                main={"size": self.preview_size, "format": "RGB888"})
            self.still_config = cam.create_still_configuration(
                main={"size": self.still_size, "format": "RGB888"})
            cam.configure(self.preview_config)
            cam.start()
        except Exception as err:  # libcamera raises several kinds when no camera is attached
            raise CameraError(f"{self.name}: cannot start: {err}") from None
        self._cam = cam

    def read(self) -> np.ndarray:
        if self._cam is None:
            raise CameraError(f"{self.name}: not open")
        try:
            return np.asarray(self._cam.capture_array("main"))
        except Exception as err:
            raise CameraError(f"{self.name}: capture failed: {err}") from None

    def still(self) -> np.ndarray:
        if self._cam is None:
            raise CameraError(f"{self.name}: not open")
        try:
            return np.asarray(self._cam.switch_mode_and_capture_array(self.still_config, "main"))
        except Exception as err:
            raise CameraError(f"{self.name}: still capture failed: {err}") from None

    def close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()


class OpenCVSource:
    """A USB webcam (a device index) or a video file or stream, through cv2.VideoCapture."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = PREVIEW_SIZE,
                 loop: bool = False) -> None:
        self.name = f"OpenCV capture {device}"
        self.device = device
        self.size = size
        self.loop = loop
        self._cap: cv2.VideoCapture | None = None

    def open(self) -> None:
        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"{self.name}: cannot be opened")
        if self.size is not None and isinstance(self.device, int):
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise CameraError(f"{self.name}: not open")
        ok, frame = self._cap.read()
        if not ok and self.loop:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"{self.name}: no frame (unplugged, or the end of the file)")
        return frame

    def still(self) -> np.ndarray:
        return self.read()

    def close(self) -> None:
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()


class FolderSource:
    """The images of a folder in name order (or the frames of a video file), looping.

    Unreadable images in the folder are skipped with a warning; a folder without any image is
    an error when opened.
    """

    def __init__(self, path: str | Path, loop: bool = True) -> None:
        self.path = Path(path)
        self.name = f"images in {self.path}"
        self.loop = loop
        self._files: list[Path] = []
        self._next = 0
        self._video: OpenCVSource | None = None

    def open(self) -> None:
        if self.path.is_file():
            self._video = OpenCVSource(str(self.path), size=None, loop=self.loop)
            self._video.open()
            return
        if not self.path.is_dir():
            raise CameraError(f"{self.path}: no such folder or video file")
        self._files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise CameraError(f"{self.path}: no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
        self._next = 0

    def read(self) -> np.ndarray:
        if self._video is not None:
            return self._video.read()
        for _ in range(len(self._files)):
            if self._next >= len(self._files):
                if not self.loop:
                    raise CameraError(f"{self.name}: no more images")
                self._next = 0
            path = self._files[self._next]
            self._next += 1
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if img is not None:
                return img
            log.warning("%s: not an image, skipped", path)
        raise CameraError(f"{self.name}: none of the images can be read")

    def still(self) -> np.ndarray:
        return self.read()

    def close(self) -> None:
        if self._video is not None:
            self._video.close()
            self._video = None


class Camera:
    """A frame source captured in its own thread; readers take the latest frame.

    ``interval`` paces the capture loop (a folder would otherwise spin); ``retry_interval`` is
    how often a lost source is reopened. ``on_availability(bool)`` is called from the capture
    thread when the camera is lost or comes back.
    """

    def __init__(self, source: FrameSource, *, interval: float = 0.0,
                 retry_interval: float = 2.0,
                 on_availability: Callable[[bool], None] | None = None) -> None:
        self.source = source
        self.interval = interval
        self.retry_interval = retry_interval
        self.on_availability = on_availability
        self._lock = threading.Condition()
        self._latest: Frame | None = None
        self._count = 0
        self._available = False
        self._lost_reported = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._source_lock = threading.Lock()

    @property
    def available(self) -> bool:
        """Whether frames are coming in now (False: the app offers touch entry instead)."""
        return self._available

    def start(self) -> Camera:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5)
        with self._source_lock:
            self.source.close()
        self._set_available(False, quiet=True)

    def __enter__(self) -> Camera:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def latest(self) -> Frame | None:
        """The newest frame, or None when the camera is not available."""
        with self._lock:
            return self._latest if self._available else None

    def wait_frame(self, after: int = -1, timeout: float = 1.0) -> Frame | None:
        """Waits for a frame numbered above ``after``; None on timeout or while unavailable."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._latest is None or self._latest.number <= after or not self._available:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._lock.wait(left)
            return self._latest

    def still(self) -> np.ndarray | None:
        """A full-resolution still (1280x720 on the Pi camera), or None if unavailable."""
        if not self._available:
            return None
        try:
            with self._source_lock:
                return self.source.still()
        except CameraError as err:
            self._lost(err)
            return None

    def _run(self) -> None:
        opened = False
        while not self._stop.is_set():
            if not opened:
                try:
                    with self._source_lock:
                        self.source.open()
                    opened = True
                except CameraError as err:
                    self._lost(err)
                    self._stop.wait(self.retry_interval)
                    continue
            try:
                with self._source_lock:
                    image = self.source.read()
            except CameraError as err:
                self._lost(err)
                with self._source_lock:
                    self.source.close()
                opened = False
                self._stop.wait(self.retry_interval)
                continue
            with self._lock:
                self._count += 1
                self._latest = Frame(image, self._count, time.monotonic())
                self._lock.notify_all()
            self._set_available(True)
            if self.interval:
                self._stop.wait(self.interval)

    def _lost(self, err: CameraError) -> None:
        if not self._lost_reported:
            log.warning("camera lost: %s; dice and tiles are entered by touch until it returns",
                        err)
            self._lost_reported = True
        self._set_available(False)

    def _set_available(self, value: bool, quiet: bool = False) -> None:
        with self._lock:
            changed = value != self._available
            self._available = value
            self._lock.notify_all()
        if not changed or quiet:
            return
        if value and self._lost_reported:
            log.warning("camera back: %s", self.source.name)
            self._lost_reported = False
        if self.on_availability is not None:
            self.on_availability(value)


def make_camera(config: Any) -> Camera | None:
    """The Camera a ``[camera]`` config section asks for, or None for ``source = "none"``."""
    kind = config.source
    if kind == "none":
        return None
    if kind == "picamera2":
        return Camera(Picamera2Source())
    if kind == "usb":
        return Camera(OpenCVSource(config.device))
    if kind == "folder":
        return Camera(FolderSource(config.path), interval=0.2)
    raise CameraError(f"[camera] source: unknown source {kind!r}")
