package sandbox

import (
	"encoding/binary"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// A seccomp filter (bubblewrap's --seccomp) refuses one thing: fallocate with FALLOC_FL_KEEP_SIZE and
// without FALLOC_FL_PUNCH_HOLE, which reserves disk space past a file's end without changing its size, so
// RLIMIT_FSIZE does not apply to it and one call could take the whole disk before the workspace's next
// measure. The call fails with EOPNOTSUPP, as on a filesystem without preallocation (tools fall back to
// writing); fallocate without the flag (bounded by RLIMIT_FSIZE) and punching holes (which frees space)
// are allowed. Every other system call is allowed: the filter bounds space, the namespaces do the rest.

// fallocateNrs lists, per architecture the host may run (its own and its 32-bit compatibility ABIs),
// the audit architecture and fallocate's number there; on a GOARCH not listed no filter is installed and
// only the measures bound such a reservation (after the fact).
var fallocateNrs = map[string][][2]uint32{
	"amd64": {{unix.AUDIT_ARCH_X86_64, 285}, {unix.AUDIT_ARCH_X86_64, 285 | 0x40000000 /* x32 */}, {unix.AUDIT_ARCH_I386, 324}},
	"arm64": {{unix.AUDIT_ARCH_AARCH64, 47}, {unix.AUDIT_ARCH_ARM, 352}},
}

// seccomp_data offsets: nr, arch, then the arguments (64 bits each; the low half first on these
// little-endian architectures).
const (
	offNr   = 0
	offArch = 4
	offArg1 = 16 + 8
)

// seccompProgram is the filter as bubblewrap reads it (struct sock_filter, native byte order), or nil on
// an architecture fallocateNrs does not list.
func seccompProgram() []byte {
	nrs := fallocateNrs[runtime.GOARCH]
	if len(nrs) == 0 {
		return nil
	}
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jeq := func(k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: jt, Jf: jf, K: k}
	}
	// For each (arch, nr): load arch; if not arch skip 2; load nr; if nr jump to the check. The check
	// follows an ALLOW; n pairs take 4n instructions before it.
	var prog []unix.SockFilter
	n := len(nrs)
	for i, an := range nrs {
		toCheck := uint8(4*(n-i-1) + 1) // from the nr test to the check: the remaining pairs and the ALLOW
		prog = append(prog,
			stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArch),
			jeq(an[0], 0, 2),
			stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offNr),
			jeq(an[1], toCheck, 0),
		)
	}
	prog = append(prog,
		stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW),
		// The check: mode & (KEEP_SIZE|PUNCH_HOLE) == KEEP_SIZE is refused.
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArg1),
		stmt(unix.BPF_ALU|unix.BPF_AND|unix.BPF_K, unix.FALLOC_FL_KEEP_SIZE|unix.FALLOC_FL_PUNCH_HOLE),
		jeq(unix.FALLOC_FL_KEEP_SIZE, 0, 1),
		stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ERRNO|uint32(unix.EOPNOTSUPP)),
		stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW),
	)
	out := make([]byte, 0, 8*len(prog))
	for _, f := range prog {
		out = binary.NativeEndian.AppendUint16(out, f.Code)
		out = append(out, f.Jt, f.Jf)
		out = binary.NativeEndian.AppendUint32(out, f.K)
	}
	return out
}

// seccompFile returns a pipe's reading end holding the filter, for bubblewrap's --seccomp, or nil
// without a filter for this architecture. The caller closes it once the command has started.
func seccompFile() (*os.File, error) {
	prog := seccompProgram()
	if prog == nil {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	_, err = w.Write(prog) // a few hundred bytes: within the pipe's buffer
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}
