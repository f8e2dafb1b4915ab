/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The command line's log: what the library logs through SLF4J, printed on stderr by slf4j-simple, at the level of
 * {@code -v} and {@code -q}. A line reads {@code scflux: INFO ...} ({@code WARN}, {@code DEBUG}...); the steps'
 * warnings are no log but the command's output, {@code scflux: warning: ...} (the Python package raises those).
 *
 * <p>slf4j-simple reads its settings from system properties once, when the first logger is made (Reactor makes one as
 * soon as its schedulers are touched), so {@link #configure} runs first thing in {@code main}; a property given on the
 * java command line ({@code SCFLUX_JAVA_OPTS}) is kept as given. The binding lives in this module only: the library
 * modules use SLF4J's API and leave the choice to the application.
 */
public final class Logging {

    private static final String PROPERTY = "org.slf4j.simpleLogger.";

    private Logging() {}

    /**
     * Sets slf4j-simple up for the command line {@code args} as {@code cl} parses them; when they do not parse, for
     * no option ({@code execute} reports the mistake).
     */
    static void configure(CommandLine cl, String[] args) {
        int verbosity = 0;
        boolean serving = false;
        try {
            ParseResult parsed = cl.parseArgs(args);
            verbosity = GlobalOptions.of(cl.getCommandSpec()).verbosity();
            serving = parsed.subcommand() != null
                    && parsed.subcommand().commandSpec().userObject() instanceof ServeCommand;
        } catch (ParameterException e) {
            // execute parses again and reports it
        }
        use(verbosity, serving);
    }

    /**
     * Sets slf4j-simple up as the command line does for {@code verbosity}, before anything logs: what a front end
     * other than the command line (the Python package's engine) calls at its start. A property already set (on the
     * java command line) is kept.
     *
     * @param verbosity -1 errors only, 0 warnings, 1 info, 2 debug
     * @param serving   whether scflux's own loggers speak at info without {@code -v}, as the service's do
     */
    public static void use(int verbosity, boolean serving) {
        properties(verbosity, serving).forEach((key, value) -> {
            if (System.getProperty(key) == null) {
                System.setProperty(key, value);
            }
        });
    }

    /**
     * slf4j-simple's settings for {@code verbosity} (-1 {@code --quiet}, 0 none, 1 {@code -v}, 2 {@code -vv}):
     * scflux's loggers ({@code io.scflux}) at warn, info with {@code -v}, debug with {@code -vv}, error with
     * {@code --quiet}; those of the libraries it uses (Reactor, Netty, jhdf, Spark) at warn, error with
     * {@code --quiet}. {@code serving} ({@code scflux serve}): info without {@code -v}, as its log of requests is what
     * an operator reads.
     */
    static Map<String, String> properties(int verbosity, boolean serving) {
        String scflux =
                verbosity < 0 ? "error" : verbosity >= 2 ? "debug" : verbosity == 1 || serving ? "info" : "warn";
        Map<String, String> p = new LinkedHashMap<>();
        // said, not left to the default: a jar on the class path may bring its own simplelogger.properties (jhdf's
        // says System.out)
        p.put(PROPERTY + "logFile", "System.err");
        p.put(PROPERTY + "cacheOutputStream", "false");
        p.put(PROPERTY + "defaultLogLevel", verbosity < 0 ? "error" : "warn");
        p.put(PROPERTY + "log.io.scflux", scflux);
        // Reactor logs an Error (out of memory) with its stack trace where it meets it, on every worker, before
        // handing it on; the command line reports it in one line (Scflux.fatal, the exception handler): -vv shows them
        String fatal = verbosity >= 2 ? "warn" : "off";
        p.put(PROPERTY + "log.reactor.core.Exceptions", fatal);
        p.put(PROPERTY + "log.reactor.core.scheduler.Schedulers", fatal);
        // the "date" is the program's name: slf4j-simple has no other prefix
        p.put(PROPERTY + "showDateTime", "true");
        p.put(PROPERTY + "dateTimeFormat", "'scflux:'");
        p.put(PROPERTY + "showThreadName", "false");
        p.put(PROPERTY + "showLogName", "false");
        p.put(PROPERTY + "showShortLogName", String.valueOf(verbosity >= 2));
        return p;
    }
}
