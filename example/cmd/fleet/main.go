// Command fleet runs the fleet demo (make demo-fleet): a throwaway PostgreSQL cluster, three worker
// processes of an MCP streamable HTTP server of the fleet tools (github.com/winkgen/wink/example/fleet)
// sharing it for their sessions and idempotency ledger, and a client that pays one invoice on every
// worker (the payment happens once) and continues one conversation across workers. It prints a
// transcript, exits non-zero when an expectation is not met, and removes the cluster.
//
// "fleet worker -name A -dsn ..." runs one worker (the demo starts its workers that way).
package main

import (
	"context"
	"os"
	"os/exec"
	"os/signal"

	"github.com/winkgen/wink/example/fleet"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "worker" {
		os.Exit(fleet.WorkerMain(os.Args[2:], os.Stdout, os.Stderr))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	self, err := os.Executable()
	if err != nil {
		os.Stderr.WriteString("fleet: " + err.Error() + "\n")
		os.Exit(1)
	}
	err = fleet.Run(ctx, os.Stdout, func(args []string) *exec.Cmd { return exec.Command(self, args...) })
	if err != nil {
		os.Stderr.WriteString("fleet: " + err.Error() + "\n")
		os.Exit(1)
	}
}
