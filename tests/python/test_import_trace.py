"""`tcosim.import_trace` writes the file `tcosim trace import` writes and says what it says."""
import subprocess

from conftest import ROOT, cli_exe

SACCT = ROOT / "tests" / "fixtures" / "own-history" / "sacct.txt"

# The canonical CSV of the hand-written sacct fixture in New York time (tests/test_own_history_slurm.cpp
# works each row out: hour 0 is job 100's Submit, 2024-03-09 22:00 EST; job 102 is after the
# spring-forward change, 4.5 h later, not 5.5).
EXPECTED = (
    "# start: 2024-03-09T22:00:00-05:00 America/New_York\n"
    "submit_h,gpus,duration_h,gpu_type,preemptible,checkpoint_h,max_wait_h,deadline_h,deferrable,class\n"
    "0,4,2,,0,,,,0,gpu\n"
    "3.5,16,25,h100,0,,,,0,gpu\n"
    "4.5,2,1,a100,0,,,,0,gpu\n"
    "5,1,0.5,,0,,,,0,gpu\n"
    "5.833333333333333,3,1,h100|l4,0,,,,0,gpu\n"
    "7,8,1,,0,,,,0,gpu\n"
    "8.083333333333334,8,2,,0,,,,0,gpu\n"
    "12,1,0.3333333333333333,,0,,,,0,debug\n"
    "13,2,0.5,,0,,,,0,gpu\n")


def test_import_trace_writes_the_clis_file(tcosim, tmp_path):
    mine, theirs = tmp_path / "mine.csv", tmp_path / "cli.csv"
    said = tcosim.import_trace(SACCT, format="slurm", out=mine, timezone="America/New_York")
    cli = subprocess.run([cli_exe(), "trace", "import", str(SACCT), "--format", "slurm", "--out", str(theirs),
                          "--timezone", "America/New_York"], check=True, capture_output=True, text=True)
    assert mine.read_bytes() == theirs.read_bytes()
    assert mine.read_text() == EXPECTED
    assert said == cli.stdout.replace(str(theirs), str(mine))
    # 19 rows: 9 jobs and 10 counted drops; job 108 without an end had run 4 GPUs x 3 h.
    assert "read 19 rows" in said and "wrote 9 jobs" in said and "dropped 10:" in said
    assert "12.00 GPU-hours" in said


def test_import_trace_of_a_missing_file_raises_input_error(tcosim, tmp_path):
    missing = tmp_path / "absent.txt"
    cli = subprocess.run([cli_exe(), "trace", "import", str(missing), "--format", "slurm", "--out",
                          str(tmp_path / "cli.csv")], capture_output=True, text=True)
    assert cli.returncode == 2
    try:
        tcosim.import_trace(missing, format="slurm", out=tmp_path / "mine.csv")
    except tcosim.InputError as e:
        assert str(missing) in str(e)
        assert str(missing) in cli.stderr
    else:
        raise AssertionError("no InputError for a missing file")
    assert not (tmp_path / "mine.csv").exists()
