/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Printable;
import io.scflux.samples.report.ErrorKind;
import io.scflux.samples.report.ErrorMessage;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import reactor.core.scheduler.Schedulers;

/**
 * The {@code scflux} command line: {@code synth}, {@code info}, {@code bench} and the operators ({@code qc},
 * {@code normalize}, {@code log1p}, {@code preprocess}...), with the options every command shares
 * ({@code --threads}, {@code --chunk-nnz}, {@code --device}, {@code --progress}, {@code --debug}). Bad input and
 * I/O failures print one line, {@code scflux: error: <message>}, and exit 1; usage errors (an option or argument
 * wrong or missing, a column named that the data lack) print that line, then {@code see 'scflux CMD --help'} after
 * an option's mistake, and exit 2.
 */
@Command(
        name = "scflux",
        mixinStandardHelpOptions = true,
        versionProvider = Scflux.Version.class,
        description = "Streams single-cell count matrices (.h5ad) larger than memory as row blocks.")
public final class Scflux implements Runnable {

    /** The commands, in the order {@code scflux --help} lists them. */
    private static final List<Class<?>> COMMANDS = List.of(
            SynthCommand.class,
            InfoCommand.class,
            StepsCommand.class,
            BenchCommand.class,
            QcCommand.class,
            FilterCellsCommand.class,
            FilterGenesCommand.class,
            NormalizeCommand.class,
            Log1pCommand.class,
            PreprocessCommand.class,
            HvgCommand.class,
            PcaCommand.class,
            ScaleCommand.class,
            NeighborsCommand.class,
            UmapCommand.class,
            LeidenCommand.class,
            PseudobulkCommand.class,
            RankGenesGroupsCommand.class,
            PipelineCommand.class,
            ConcatCommand.class,
            ConvertCommand.class,
            PlotCommand.class,
            ServeCommand.class,
            CacheCommand.class,
            FuzzCommand.class);

    /** How long {@link #fatal} lets the shutdown hooks run. */
    static final long HOOKS_MS = 5000;

    /** Whether {@link #fatal} has reported an error: later ones (other workers out of memory) are not repeated. */
    private static final AtomicBoolean FATAL = new AtomicBoolean();

    @Spec
    private CommandSpec spec;

    /** The options every command shares, inherited by the commands below. */
    @Mixin(name = GlobalOptions.NAME)
    private GlobalOptions global = new GlobalOptions();

    public static void main(String[] args) {
        // Plots are drawn into images, never on a screen: no display is needed or looked for.
        System.setProperty("java.awt.headless", "true");
        CommandLine cl = commandLine(args);
        // before any logger is made, Reactor's below included
        Logging.configure(cl, args);
        // An Error thrown on a scheduler's worker (out of memory) never reaches the subscriber, which would wait
        // forever: report it and stop instead.
        Schedulers.onHandleError(Scflux.class.getName(), (thread, error) -> fatal(error));
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> fatal(error));
        CallerWatch.startIfAsked(Scflux::callerGone);
        System.exit(cl.execute(args));
    }

    /**
     * Prints one line for an error nothing else will report, then stops the JVM with status 1, running the shutdown
     * hooks (which remove unfinished output and spill files) for at most {@link #HOOKS_MS} ms.
     */
    static void fatal(Throwable error) {
        if (!FATAL.compareAndSet(false, true)) {
            return; // one line for the first error; the exit it started stops the threads that fail after it
        }
        System.err.println("scflux: error: "
                + (error instanceof OutOfMemoryError m ? ErrorMessage.outOfMemory(m) : ErrorMessage.of(error)));
        System.err.flush();
        exitAfterHooks();
    }

    /**
     * Stops the run whose caller is gone ({@link CallerWatch}): one line (for a caller that closed the pipe and
     * still reads), then the exit of {@link #fatal}, whose hooks remove the unfinished files.
     */
    static void callerGone() {
        if (!FATAL.compareAndSet(false, true)) {
            return;
        }
        System.err.println("scflux: error: stopped: the caller closed stdin (it exited, was killed or cancelled)");
        System.err.flush();
        exitAfterHooks();
    }

    /** Exits with status 1, the shutdown hooks given at most {@link #HOOKS_MS} ms, then halts. */
    private static void exitAfterHooks() {
        try {
            // exit on a thread of its own: a hook waiting for a lock the failed thread holds must not keep the JVM up
            Thread exit = new Thread(() -> System.exit(1), "scflux-fatal-exit");
            exit.setDaemon(true);
            exit.start();
            exit.join(HOOKS_MS);
        } catch (Throwable e) {
            // no thread to be had (out of memory) or interrupted: stop without the hooks
        }
        Runtime.getRuntime().halt(1);
    }

    /** The command line with scflux's error handling, ready to {@code execute}; tests redirect its out and err. */
    public static CommandLine commandLine() {
        return commandLine(COMMANDS);
    }

    /**
     * The command line for {@code args}: with only the command they start with, when they start with one, since
     * picocli's model of all of them took a third of a second of every start (330-375 ms); else, for global options
     * given first, help, or a mistyped command (the full model suggests the right name), with all of them.
     */
    static CommandLine commandLine(String[] args) {
        String first = args.length > 0 ? args[0] : "";
        return commandLine(COMMANDS.stream()
                .filter(c -> c.getAnnotation(Command.class).name().equals(first))
                .findFirst()
                .map(List::<Class<?>>of)
                .orElse(COMMANDS));
    }

    private static CommandLine commandLine(List<Class<?>> commands) {
        CommandLine cl = new CommandLine(new Scflux());
        commands.forEach(cl::addSubcommand);
        cl.getSubcommands().values().forEach(sub -> {
            if (sub.getCommand() instanceof StepCommand step) {
                StepOptions.add(sub.getCommandSpec(), step.parameters());
            }
        });
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionStrategy(parsed -> {
            GlobalOptions.of(cl.getCommandSpec()).verbosity(); // -v with -q is a usage error, whatever the command
            // the one place the environment is read: the library takes the settings from here
            try {
                GlobalOptions.of(cl.getCommandSpec()).useSettings(Environment.settings());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ExecutionException(cl, e.getMessage(), e);
            }
            return new CommandLine.RunLast().execute(parsed);
        });
        cl.setExecutionExceptionHandler((e, failed, parsed) -> {
            PrintWriter err = failed.getErr();
            err.println("scflux: error: " + ErrorMessage.of(e));
            ErrorKind kind = ErrorKind.of(e);
            if (GlobalOptions.of(failed.getCommandSpec()).debug()) {
                e.printStackTrace(err);
            } else if (kind == ErrorKind.INTERNAL) {
                err.println("scflux: this looks like a bug; --debug prints the stack trace");
            } else if (kind == ErrorKind.USAGE) {
                err.println("see '" + failed.getCommandSpec().qualifiedName() + " --help'");
            }
            printKind(err, kind);
            // an option's value an options record refuses, and a column the command line names and the data lack,
            // are the command line's mistakes, in every command
            return kind == ErrorKind.MISSING_KEY || kind == ErrorKind.USAGE
                    ? CommandLine.ExitCode.USAGE
                    : CommandLine.ExitCode.SOFTWARE;
        });
        cl.setParameterExceptionHandler((e, args) -> {
            CommandLine failed = e.getCommandLine();
            PrintWriter err = failed.getErr();
            err.println("scflux: error: " + Printable.escape(e.getMessage()));
            if (e instanceof CommandLine.UnmatchedArgumentException u
                    && !u.getSuggestions().isEmpty()) {
                err.println("scflux: did you mean " + String.join(" or ", u.getSuggestions()) + "?");
            }
            err.println("see '" + failed.getCommandSpec().qualifiedName() + " --help'");
            printKind(err, ErrorKind.USAGE);
            return CommandLine.ExitCode.USAGE;
        });
        return cl;
    }

    /**
     * When the environment asks for it ({@code SCFLUX_ERROR_KIND=1}, as the Python package does), the kind of the
     * error just reported, on a line of its own: {@code scflux: error-kind: missing_key}.
     */
    private static void printKind(PrintWriter err, ErrorKind kind) {
        if ("1".equals(System.getenv(ErrorKind.ENVIRONMENT))) {
            err.println("scflux: error-kind: " + kind.wireName());
        }
        err.flush();
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    /** The version in the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Scflux.class.getPackage().getImplementationVersion();
            return new String[] {"scflux " + (v != null ? v : "(development build)")};
        }
    }
}
