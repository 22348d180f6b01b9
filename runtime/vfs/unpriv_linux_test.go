package vfs

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/winkgen/wink/internal/unpriv"
)

// TestHostSnapshotsCopeWithEntriesThisUserCannotRead needs a user who cannot read what another user
// owns, which root never is: run as root (as CI does), it builds the trees as root, then runs its
// scenario, and the other host hardening tests, as the unprivileged user nobody by re-executing the test
// binary; run as nobody (the child), it is the scenario.
func TestHostSnapshotsCopeWithEntriesThisUserCannotRead(t *testing.T) {
	if a := os.Getenv("WINK_UNPRIV_A"); a != "" {
		unprivScenario(t, a, os.Getenv("WINK_UNPRIV_B"))
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("builds another user's files, so it runs as root (CI does), re-running its scenario as nobody")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("no nobody user to run the unprivileged scenario as: %v", err)
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	base, err := os.MkdirTemp("", "wink-unpriv-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Chmod(base, 0o755))
	// The test binary, where nobody can run it.
	bin := filepath.Join(base, "vfs.test")
	data, err := os.ReadFile(os.Args[0])
	must(err)
	must(os.WriteFile(bin, data, 0o755))
	mk := func(dir string) string {
		p := filepath.Join(base, dir)
		must(os.Mkdir(p, 0o755))
		must(os.Chown(p, uid, gid))
		return p
	}
	file := func(p, content string, mode fs.FileMode, owner int) {
		must(os.WriteFile(p, []byte(content), 0o600))
		must(os.Chmod(p, mode))
		if owner >= 0 {
			must(os.Chown(p, owner, gid))
		}
	}
	// Tree A: nobody's own files (one write-only: nobody may chmod it), and root's unreadable directory
	// and file, which nobody can neither read nor change.
	a := mk("a")
	file(filepath.Join(a, "mine.txt"), "mine\n", 0o644, uid)
	file(filepath.Join(a, "mine_wo.txt"), "write-only mine\n", 0o200, uid)
	must(os.Mkdir(filepath.Join(a, "locked"), 0o700))
	file(filepath.Join(a, "locked", "inner.txt"), "inner\n", 0o600, -1)
	file(filepath.Join(a, "secret.txt"), "secret\n", 0o600, -1)
	// Tree B: root's file that nobody may write but not read: its changes could not be undone.
	b := mk("b")
	file(filepath.Join(b, "shared.txt"), "shared\n", 0o622, -1)

	tmp := mk("tmp") // the snapshot store's parent, nobody's
	// The scenario, and the other host tests of the hardening classes (hard links and their rollback,
	// sparse files, the snapshot cap), as nobody.
	unprivTests := []string{"TestHostSnapshotsCopeWithEntriesThisUserCannotRead", "TestWritesNeverReachAnInodeOutsideTheRoot",
		"TestSparseFilesAreSnapshotAndRestoredSparsely", "TestSnapshotOverItsByteCapFailsNamingTheFile",
		"TestRollbackRestoresEveryNameOfAnInode", "TestLinkedWritesRollBackUnderEveryName",
		"TestRollbackOfAnOutsideLinkedFileWhoseNameWasRemoved", "TestScrubPrivilegesTakesAwayWhatCouldGrantThem",
		"TestGrowthMeasuresWhatWasAdded", "TestGrowthCountsDiskSpaceNotNames", "TestScrubReachesFilesInDirectoriesThatForbidIt", "TestRollbackScenariosWithLinksAndDirectories",
		"TestNothingBlocksOnASpecialFileSwappedIn", "TestSpecialFilesAreRefusedAtOnce"}
	cmd := exec.Command(bin, "-test.run=^("+strings.Join(unprivTests, "|")+")$", "-test.v")
	cmd.Env = append(os.Environ(), "WINK_UNPRIV_A="+a, "WINK_UNPRIV_B="+b, "TMPDIR="+tmp)
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	unpriv.Lock(t) // one run as nobody at a time on the machine: RLIMIT_NPROC counts them together
	out, err := cmd.CombinedOutput()
	passed := 0
	for _, name := range unprivTests {
		if strings.Contains(string(out), "\n--- PASS: "+name+" ") {
			passed++
		}
	}
	if err != nil || passed != len(unprivTests) {
		t.Fatalf("the tests as nobody failed: %v\n%s", err, out)
	}
	// What nobody rolled back is as it was; what it could not touch is untouched.
	for p, want := range map[string]string{"mine.txt": "mine\n", "mine_wo.txt": "write-only mine\n", "secret.txt": "secret\n", "locked/inner.txt": "inner\n"} {
		if b, err := os.ReadFile(filepath.Join(a, p)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", p, b, err, want)
		}
	}
	if fi, _ := os.Stat(filepath.Join(a, "mine_wo.txt")); fi.Mode().Perm() != 0o200 {
		t.Errorf("mine_wo.txt mode %v, want 0200 back", fi.Mode().Perm())
	}
	if _, err := os.Stat(filepath.Join(a, "new.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("new.txt survived the rollback: %v", err)
	}
}

// unprivScenario runs as nobody.
func unprivScenario(t *testing.T, a, b string) {
	h, err := NewHost(a)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	snap, err := h.Snapshot()
	if err != nil {
		t.Fatalf("snapshot with another user's unreadable entries: %v", err)
	}
	want := []string{
		`the directory (and everything below it) "locked" can be neither read nor changed by this user: snapshots record it but do not copy it, and rollbacks leave it alone`,
		`the file "secret.txt" can be neither read nor changed by this user: snapshots record it but do not copy it, and rollbacks leave it alone`,
	}
	if got := h.Warnings(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := h.Write("mine.txt", []byte("changed\n")); err != nil {
		t.Fatal(err)
	}
	if err := h.Write("new.txt", []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(a, "mine_wo.txt"), []byte("overwritten\n"), 0); err != nil {
		t.Fatal(err)
	}
	if err := h.Restore(snap); err != nil {
		t.Fatalf("restore: %v", err)
	}
	if b, _ := h.Read("mine.txt"); string(b) != "mine\n" {
		t.Fatalf("mine.txt = %q after restore", b)
	}
	// Every later snapshot works too (a dispatch takes one per call).
	for range 3 {
		if _, err := h.Snapshot(); err != nil {
			t.Fatalf("a later snapshot: %v", err)
		}
	}
	hb, err := NewHost(b)
	if err != nil {
		t.Fatal(err)
	}
	defer hb.Close()
	_, err = hb.Snapshot()
	wantErr := `snapshot ".": cannot read the file "shared.txt" to snapshot it, yet this user can change it, so its changes could not be rolled back; make it readable (chmod u+r, as its owner) or move it out of the workspace`
	if err == nil || err.Error() != wantErr {
		t.Fatalf("err = %v\nwant %s", err, wantErr)
	}
}
