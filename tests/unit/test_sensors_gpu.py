"""GPU readings. No GPU here: torch and NVML are replaced by test doubles that answer with the
shapes and values a real CUDA machine gives (memory_stats keys, NVML bus ids), so the pairing
and the arithmetic are checked; the real calls run in ComfyUI on a GPU machine."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from memprobe._log import reset_warnings
from memprobe.sensing.gpu import NvmlDevice, TorchDevice, match_devices, normalize_pci_bus_id
from memprobe.sensing.gpu import gpu_sensor as GpuSensor

GIB = 1024**3


def test_pci_bus_ids_in_every_spelling_normalise_alike():
    assert normalize_pci_bus_id("00000000:01:00.0") == normalize_pci_bus_id("0000:01:00.0") == "0000:01:00"
    assert normalize_pci_bus_id("0000:0A:00.0") == "0000:0a:00"
    assert normalize_pci_bus_id("garbage") is None and normalize_pci_bus_id(None) is None


def test_devices_are_paired_by_pci_bus_id_not_by_index():
    torch_devs = [
        TorchDevice(0, "cuda", "RTX 4090", "0000:41:00", None, 24 * GIB),
        TorchDevice(1, "cuda", "RTX 3060", "0000:01:00", None, 12 * GIB),
    ]
    nvml_devs = [
        NvmlDevice(0, "RTX 3060", "00000000:01:00.0", "GPU-b"),
        NvmlDevice(1, "RTX 4090", "00000000:41:00.0", "GPU-a"),
    ]
    pairs = match_devices(torch_devs, nvml_devs)
    assert pairs[0].name == "RTX 4090" and pairs[1].name == "RTX 3060"


def test_devices_without_pci_ids_fall_back_to_uuid():
    torch_devs = [TorchDevice(0, "cuda", "A", None, "5a3c0e2f-0000-1111-2222-333344445555", None)]
    nvml_devs = [NvmlDevice(3, "A", None, "GPU-5A3C0E2F-0000-1111-2222-333344445555")]
    assert match_devices(torch_devs, nvml_devs)[0].index == 3


class FakeCuda:
    """torch.cuda as a 2-GPU machine answers (memory_stats keys as PyTorch names them)."""

    def __init__(self, initialized: bool = True) -> None:
        self.initialized = initialized
        self.reset_calls: list[int] = []
        self.props = [
            SimpleNamespace(
                name="NVIDIA GeForce RTX 4090",
                total_memory=24 * GIB,
                pci_bus_id=0x41,
                pci_device_id=0,
                pci_domain_id=0,
                uuid="aaaa",
            ),
            SimpleNamespace(
                name="NVIDIA GeForce RTX 3060",
                total_memory=12 * GIB,
                pci_bus_id=0x01,
                pci_device_id=0,
                pci_domain_id=0,
                uuid="bbbb",
            ),
        ]

    def is_available(self):
        return True

    def is_initialized(self):
        return self.initialized

    def device_count(self):
        return 2

    def get_device_properties(self, i):
        return self.props[i]

    def memory_stats(self, i):
        return {
            "allocated_bytes.all.current": (i + 1) * GIB,
            "reserved_bytes.all.current": (i + 2) * GIB,
            "allocated_bytes.all.peak": (i + 3) * GIB,
            "num_ooms": 0,
        }

    def mem_get_info(self, i):
        return (4 * GIB, self.props[i].total_memory)

    def reset_peak_memory_stats(self, i):
        self.reset_calls.append(i)


class FakeNvml:
    """pynvml with the two cards in the opposite (PCI) order."""

    class Memory:
        def __init__(self, used, total):
            self.used, self.total = used, total

    def __init__(self) -> None:
        self.cards = [
            ("NVIDIA GeForce RTX 3060", "00000000:01:00.0", 11 * GIB, 12 * GIB),
            ("NVIDIA GeForce RTX 4090", "00000000:41:00.0", 20 * GIB, 24 * GIB),
        ]
        self.shutdowns = 0

    def nvmlInit(self):
        pass

    def nvmlShutdown(self):
        self.shutdowns += 1

    def nvmlSystemGetDriverVersion(self):
        return b"560.94"

    def nvmlDeviceGetCount(self):
        return len(self.cards)

    def nvmlDeviceGetHandleByIndex(self, i):
        return i

    def nvmlDeviceGetPciInfo(self, h):
        return SimpleNamespace(busId=self.cards[h][1].encode())

    def nvmlDeviceGetName(self, h):
        return self.cards[h][0]

    def nvmlDeviceGetUUID(self, h):
        return f"GPU-{h}"

    def nvmlDeviceGetMemoryInfo(self, h):
        return self.Memory(self.cards[h][2], self.cards[h][3])


@pytest.fixture
def fake_gpu_machine(monkeypatch):
    cuda = FakeCuda()
    torch = SimpleNamespace(cuda=cuda, version=SimpleNamespace(hip=None), __version__="2.x")
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "pynvml", FakeNvml())
    return cuda


def test_cuda_readings_combine_torch_counters_with_nvml_device_use(fake_gpu_machine):
    gpus = GpuSensor().read()
    assert [g.name for g in gpus] == ["NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3060"]
    rtx4090, rtx3060 = gpus
    assert rtx4090.device_used_bytes == 20 * GIB and rtx4090.device_total_bytes == 24 * GIB  # NVML index 1
    assert rtx3060.device_used_bytes == 11 * GIB
    assert rtx4090.torch_allocated_bytes == GIB and rtx4090.torch_reserved_bytes == 2 * GIB
    assert rtx4090.torch_peak_allocated_bytes == 3 * GIB
    assert rtx4090.driver_version == "560.94" and rtx4090.backend == "cuda"
    assert rtx4090.pci_bus_id == "0000:41:00"


def test_peaks_are_reset_on_every_device(fake_gpu_machine):
    sensor = GpuSensor()
    sensor.read()
    assert sensor.reset_peaks() == [
        "gpu0_allocated_bytes",
        "gpu0_reserved_bytes",
        "gpu1_allocated_bytes",
        "gpu1_reserved_bytes",
    ]
    assert fake_gpu_machine.reset_calls == [0, 1]


def test_the_nested_statistics_are_read_without_flattening(fake_gpu_machine):
    # GIVEN a torch with memory_stats_as_nested_dict (what memory_stats flattens in Python)
    def nested(i):
        def stat(current, peak):
            return {
                "all": {"current": current, "peak": peak, "allocated": 0, "freed": 0},
                "small_pool": {},
                "large_pool": {},
            }

        return {
            "allocated_bytes": stat((i + 1) * GIB, (i + 3) * GIB),
            "reserved_bytes": stat((i + 2) * GIB, 5 * GIB),
            "num_ooms": 0,
        }

    def flattened(i):
        raise AssertionError("memory_stats must not be called when the nested form exists")

    fake_gpu_machine.memory_stats_as_nested_dict = nested
    fake_gpu_machine.memory_stats = flattened
    rtx4090 = GpuSensor().read()[0]
    assert (rtx4090.torch_allocated_bytes, rtx4090.torch_reserved_bytes) == (GIB, 2 * GIB)
    assert (rtx4090.torch_peak_allocated_bytes, rtx4090.torch_peak_reserved_bytes) == (3 * GIB, 5 * GIB)


def test_a_cpu_only_torch_leaves_the_gpus_out_of_the_sampler(monkeypatch):
    torch = SimpleNamespace(
        cuda=SimpleNamespace(is_available=lambda: False),
        backends=SimpleNamespace(mps=SimpleNamespace(is_available=lambda: False)),
    )
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "pynvml", None)
    sensor = GpuSensor()
    assert not sensor.none_found  # not looked yet
    assert sensor.read() == () and sensor.none_found and sensor.reset_peaks() == []


def test_an_uninitialised_cuda_is_left_alone(fake_gpu_machine):
    fake_gpu_machine.initialized = False
    sensor = GpuSensor(allow_cuda_init=False)
    assert sensor.read() == ()
    fake_gpu_machine.initialized = True  # ComfyUI initialised it meanwhile
    assert len(sensor.read()) == 2


def test_without_nvml_the_device_wide_figure_comes_from_the_driver_through_torch(fake_gpu_machine, monkeypatch):
    monkeypatch.setitem(sys.modules, "pynvml", None)  # import fails
    reset_warnings()
    gpus = GpuSensor().read()
    assert gpus[0].device_used_bytes == 20 * GIB  # 24 total - 4 free from mem_get_info
    assert gpus[0].torch_reserved_bytes == 2 * GIB


def test_rocm_uses_the_driver_through_torch(monkeypatch):
    cuda = FakeCuda()
    monkeypatch.setitem(sys.modules, "torch", SimpleNamespace(cuda=cuda, version=SimpleNamespace(hip="6.2")))
    gpus = GpuSensor(use_nvml=False).read()
    assert gpus[0].backend == "rocm" and gpus[0].device_used_bytes == 20 * GIB


def test_apple_mps(monkeypatch):
    mps = SimpleNamespace(
        current_allocated_memory=lambda: 3 * GIB,
        driver_allocated_memory=lambda: 5 * GIB,
        recommended_max_memory=lambda: 21 * GIB,
    )
    torch = SimpleNamespace(
        cuda=SimpleNamespace(is_available=lambda: False),
        mps=mps,
        backends=SimpleNamespace(mps=SimpleNamespace(is_available=lambda: True)),
    )
    monkeypatch.setitem(sys.modules, "torch", torch)
    (gpu,) = GpuSensor(use_nvml=False).read()
    assert (gpu.backend, gpu.torch_allocated_bytes, gpu.device_used_bytes, gpu.device_total_bytes) == (
        "mps",
        3 * GIB,
        5 * GIB,
        21 * GIB,
    )


def test_a_cpu_only_machine_has_no_gpu_entries_and_no_warning(monkeypatch, caplog):
    torch = SimpleNamespace(
        cuda=SimpleNamespace(is_available=lambda: False),
        backends=SimpleNamespace(mps=SimpleNamespace(is_available=lambda: False)),
    )
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "pynvml", None)
    reset_warnings()
    assert GpuSensor().read() == ()
    assert not [r for r in caplog.records if r.levelname == "WARNING"]


def test_a_failing_torch_counter_leaves_none_and_warns_once(fake_gpu_machine, caplog):
    reset_warnings()

    def broken(i):
        raise RuntimeError("CUDA error: an illegal memory access was encountered")

    fake_gpu_machine.memory_stats = broken
    sensor = GpuSensor()
    first, second = sensor.read(), sensor.read()
    assert first[0].torch_allocated_bytes is None and second[0].device_used_bytes == 20 * GIB
    assert sum("torch memory counters failed" in r.message for r in caplog.records) == 1
