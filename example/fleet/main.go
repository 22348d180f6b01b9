package fleet

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

// WorkerMain runs a worker from its command-line arguments (WorkerArgs without the leading "worker")
// until it is interrupted, printing "ready <url>" on stdout once it serves; it returns the exit code.
func WorkerMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg WorkerConfig
	fs.StringVar(&cfg.Name, "name", "A", "worker name shown in results")
	fs.StringVar(&cfg.DSN, "dsn", "", "PostgreSQL connection string of the shared database")
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:0", "listen address")
	fs.StringVar(&cfg.EffectsFile, "effects", "", "file receiving one line per payment made")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg.Ready = func(url string) { io.WriteString(stdout, "ready "+url+"\n") }
	if err := Serve(ctx, cfg); err != nil {
		io.WriteString(stderr, "worker "+cfg.Name+": "+err.Error()+"\n")
		return 1
	}
	return 0
}
