/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends the run when the process that started it is gone, for a caller that asks for it: the Python package starts
 * the command line with {@code SCFLUX_CALLER_PIPE=1} and stdin a pipe it holds open and never writes to. The pipe's
 * end (EOF: the caller exited or was killed, by SIGKILL too, or closed it to cancel) stops the JVM as a SIGTERM does:
 * the shutdown hooks remove the unfinished output and spill files, and the input of an in-place rewrite is left as it
 * was. Without the variable stdin is not read.
 */
final class CallerWatch {

    /** The environment variable that asks for the watch. */
    static final String ENVIRONMENT = "SCFLUX_CALLER_PIPE";

    private CallerWatch() {}

    /** Starts the watch when the environment asks for it; {@code gone} runs once the pipe has ended. */
    static void startIfAsked(Runnable gone) {
        if ("1".equals(System.getenv(ENVIRONMENT))) {
            start(System.in, gone);
        }
    }

    /** Reads {@code pipe} to its end on a daemon thread, then runs {@code gone}. */
    static void start(InputStream pipe, Runnable gone) {
        Thread watch = new Thread(
                () -> {
                    try {
                        byte[] ignored = new byte[256];
                        while (pipe.read(ignored) >= 0) {
                            // the caller writes nothing; what it might write is not a message
                        }
                    } catch (IOException e) {
                        // a pipe that fails is a caller gone as well
                    }
                    gone.run();
                },
                "scflux-caller-watch");
        watch.setDaemon(true);
        watch.start();
    }
}
