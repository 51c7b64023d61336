"""The camera sources: an image folder, OpenCV on a generated video file, picamera2 through a
fake module, and a camera that disappears and comes back."""

from __future__ import annotations

import logging
import sys
import threading
import types

import cv2
import numpy as np
import pytest

from hardware.camera import (
    Camera,
    CameraError,
    FolderSource,
    OpenCVSource,
    Picamera2Source,
)

COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]  # BGR: blue, green, red


def _solid(colour, size=(64, 48)):
    img = np.zeros((size[1], size[0], 3), np.uint8)
    img[:] = colour
    return img


def test_folder_source_reads_images_in_name_order_and_loops(tmp_path):
    for i, colour in enumerate(COLOURS):
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), _solid(colour))
    (tmp_path / "notes.txt").write_text("not an image")
    source = FolderSource(tmp_path)
    source.open()
    seen = [tuple(int(v) for v in source.read()[0, 0]) for _ in range(4)]
    source.close()
    assert seen == [*COLOURS, COLOURS[0]]


def test_folder_source_without_images_is_a_clear_error(tmp_path):
    with pytest.raises(CameraError, match="no images"):
        FolderSource(tmp_path).open()
    with pytest.raises(CameraError, match="no such folder"):
        FolderSource(tmp_path / "missing").open()


def test_camera_thread_hands_out_the_latest_frame(tmp_path):
    for i, colour in enumerate(COLOURS):
        cv2.imwrite(str(tmp_path / f"frame{i}.png"), _solid(colour))
    with Camera(FolderSource(tmp_path), interval=0.001) as camera:
        first = camera.wait_frame(timeout=5)
        assert first is not None and first.image.shape == (48, 64, 3)
        later = camera.wait_frame(after=first.number + 5, timeout=5)
        assert later is not None and later.number > first.number + 5
        assert camera.available
        assert camera.latest().number >= later.number


def test_opencv_source_reads_a_generated_video_file(tmp_path):
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for colour in COLOURS:
        for _ in range(3):
            writer.write(_solid(colour))
    writer.release()
    source = OpenCVSource(str(path), size=None)
    source.open()
    frames = []
    with pytest.raises(CameraError, match="no frame"):
        while True:
            frames.append(source.read())
    source.close()
    assert len(frames) == 9
    # MJPEG is lossy: the dominant channel of each third must still be right.
    assert [int(np.argmax(f.reshape(-1, 3).mean(axis=0))) for f in frames[::3]] == [0, 1, 2]


def test_folder_source_on_a_video_file_loops(tmp_path):
    path = tmp_path / "demo.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for colour in COLOURS:
        writer.write(_solid(colour))
    writer.release()
    source = FolderSource(path)
    source.open()
    frames = [source.read() for _ in range(5)]
    source.close()
    assert [int(np.argmax(f.reshape(-1, 3).mean(axis=0))) for f in frames] == [0, 1, 2, 0, 1]


class _FakePicamera2:
    """Stands in for picamera2.Picamera2: records how it is configured and used."""

    instances: list[_FakePicamera2] = []

    def __init__(self, camera_num=0):
        self.camera_num = camera_num
        self.configured = None
        self.started = False
        self.closed = False
        self.captures = []
        _FakePicamera2.instances.append(self)

    def create_preview_configuration(self, main=None, **kwargs):
        return {"use_case": "preview", "main": dict(main or {})}

    def create_still_configuration(self, main=None, **kwargs):
        return {"use_case": "still", "main": dict(main or {})}

    def configure(self, config):
        self.configured = config

    def start(self):
        self.started = True

    def capture_array(self, name="main"):
        w, h = self.configured["main"]["size"]
        img = np.zeros((h, w, 3), np.uint8)
        img[..., 0] = 200  # RGB888 is stored B, G, R: channel 0 is blue
        self.captures.append(("preview", name))
        return img

    def switch_mode_and_capture_array(self, config, name="main"):
        w, h = config["main"]["size"]
        self.captures.append((config["use_case"], name))
        return np.zeros((h, w, 3), np.uint8)

    def stop(self):
        self.started = False

    def close(self):
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    """Injects a fake ``picamera2`` module: the real one exists only on a Raspberry Pi."""
    module = types.ModuleType("picamera2")
    module.Picamera2 = _FakePicamera2
    _FakePicamera2.instances = []
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return _FakePicamera2


def test_picamera2_source_configures_preview_and_still_in_bgr_order(fake_picamera2):
    source = Picamera2Source()
    source.open()
    cam = fake_picamera2.instances[-1]
    assert cam.started
    assert cam.configured == {"use_case": "preview",
                              "main": {"size": (640, 480), "format": "RGB888"}}
    assert source.still_config == {"use_case": "still",
                                   "main": {"size": (1280, 720), "format": "RGB888"}}
    frame = source.read()
    assert frame.shape == (480, 640, 3)
    assert frame[0, 0].tolist() == [200, 0, 0]  # passed through unchanged: blue stays first
    still = source.still()
    assert still.shape == (720, 1280, 3)
    assert cam.captures == [("preview", "main"), ("still", "main")]
    source.close()
    assert cam.closed and not cam.started


def test_picamera2_missing_is_a_camera_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as off a Pi
    with pytest.raises(CameraError, match="picamera2 is not installed"):
        Picamera2Source().open()


class _FlakySource:
    """A source that fails while ``unplugged`` is set, like a webcam pulled out and back."""

    name = "flaky test camera"

    def __init__(self):
        self.unplugged = threading.Event()
        self.opens = 0

    def open(self):
        if self.unplugged.is_set():
            raise CameraError("flaky test camera: cannot be opened")
        self.opens += 1

    def read(self):
        if self.unplugged.is_set():
            raise CameraError("flaky test camera: no frame")
        return _solid((1, 2, 3))

    def still(self):
        return self.read()

    def close(self):
        pass


def test_a_camera_that_disappears_is_reported_once_and_comes_back(caplog):
    source = _FlakySource()
    changes = []
    caplog.set_level(logging.WARNING, logger="hardware.camera")
    camera = Camera(source, interval=0.001, retry_interval=0.005, on_availability=changes.append)
    with camera:
        assert camera.wait_frame(timeout=5) is not None
        source.unplugged.set()
        deadline = threading.Event()
        for _ in range(500):
            if not camera.available:
                break
            deadline.wait(0.005)
        assert not camera.available
        assert camera.latest() is None
        deadline.wait(0.1)  # several failed retries happen meanwhile
        source.unplugged.clear()
        back = camera.wait_frame(timeout=5)
        assert back is not None and camera.available
    lost = [r for r in caplog.records if "camera lost" in r.getMessage()]
    returned = [r for r in caplog.records if "camera back" in r.getMessage()]
    assert len(lost) == 1 and len(returned) == 1
    assert changes[:3] == [True, False, True]
    assert source.opens >= 2
