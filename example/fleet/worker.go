package fleet

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/mcpserver"
	"github.com/winkgen/wink/runtime/session"
	"github.com/winkgen/wink/runtime/wink"
)

// SessionHeader carries the application's session id: requests with the same id continue one stored
// session, on whichever worker they land.
const SessionHeader = "X-Wink-Session"

// WorkerConfig configures one worker process.
type WorkerConfig struct {
	// Name names the worker in results ("A").
	Name string
	// DSN is the PostgreSQL connection string of the shared database.
	DSN string
	// Addr is the address to listen on; "127.0.0.1:0" lets the system choose the port.
	Addr string
	// EffectsFile receives one line per payment made.
	EffectsFile string
	// Ready is called with the worker's MCP endpoint once it listens.
	Ready func(url string)
	// Logger receives the server's diagnostics; nil discards them.
	Logger *slog.Logger
}

// Serve runs one worker until ctx is done: an MCP streamable HTTP server of the fleet tools, stateless
// (any request may land on any worker), whose sessions and idempotency ledger live in the shared
// database.
func Serve(ctx context.Context, cfg WorkerConfig) error {
	Worker, EffectsFile = cfg.Name, cfg.EffectsFile
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	shared, err := openShared(ctx, cfg.DSN)
	if err != nil {
		return err
	}
	defer shared.close()

	reg, err := wink.NewRegistry(WinkTools())
	if err != nil {
		return err
	}
	template := &wink.Dispatcher{Registry: reg, Ledger: shared.ledger}
	sessions := func(ctx context.Context, c mcpserver.Client) (*wink.Dispatcher, func(), error) {
		d := *template
		id := c.Header.Get(SessionHeader)
		if id == "" { // not mapped: a fresh session for this request only
			d.Session = session.New()
			return &d, nil, nil
		}
		s, release, err := shared.open(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		d.Session = s
		return &d, release, nil
	}
	h, err := mcpserver.HTTPHandler(template,
		mcpserver.WithSessions(sessions),
		mcpserver.WithImplementation("wink-fleet-"+cfg.Name, "v0.1.0"),
		mcpserver.WithLogger(logger),
		mcpserver.WithHTTPOptions(&mcp.StreamableHTTPOptions{Stateless: true, Logger: logger}))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if cfg.Ready != nil {
		cfg.Ready("http://" + ln.Addr().String() + "/mcp")
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// Shutdown lets calls in flight finish; connections that never sent a request count as busy
	// for 5s, so after a grace period the rest are closed.
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return srv.Close()
}
