/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import io.scflux.samples.report.StepCatalogJson;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * A step's options on the command line, made from its catalog parameters ({@link io.scflux.ops.StepCatalog}) rather
 * than written beside them: {@code --n-top-genes} for scanpy's {@code n_top_genes}, the parameter's doc and default as
 * the description, {@code --[no-]NAME} for a bool, {@code A,B} (or repeated) for a list, {@code none} for an empty
 * list. picocli converts a number (so that {@code abc} is its usage error, as for every other option); the options
 * record checks the values, as it does the service's JSON.
 */
final class StepOptions {

    /**
     * The spellings the command line had before the catalog, kept so that existing invocations still parse:
     * {@code --qc-var} (repeated, one name each) and {@code --solver}.
     */
    private static final Map<String, String> ALIASES = Map.of("qc_vars", "--qc-var", "svd_solver", "--solver");

    /** What the command line's spelling of a parameter adds to its doc. */
    private static final Map<String, String> NOTES = Map.of(
            "qc_vars",
            "--qc-var NAME=PREFIX first makes the column NAME, true for the genes whose name starts with PREFIX "
                    + "(e.g. mt=MT-).",
            "percent_top",
            "--percent-top none: no such column.");

    private StepOptions() {}

    /** The option of {@code parameter}: its scanpy name with {@code -} for {@code _}. */
    static String name(Parameter<?> parameter) {
        return StepCatalogJson.option(parameter);
    }

    /** Adds the options of {@code parameters} to {@code spec}. */
    static void add(CommandSpec spec, List<Parameter<?>> parameters) {
        for (Parameter<?> p : parameters) {
            String alias = ALIASES.get(p.name());
            String[] names = alias == null ? new String[] {name(p)} : new String[] {name(p), alias};
            OptionSpec.Builder option = OptionSpec.builder(names).description(description(p));
            if (p.kind() == Parameter.Kind.BOOL) {
                option.type(Boolean.class).arity("0").negatable(true);
            } else if (p.kind().isList()) {
                option.type(List.class)
                        .auxiliaryTypes(String.class)
                        .splitRegex(",")
                        .paramLabel(label(p));
            } else {
                Class<?> type = p.kind() == Parameter.Kind.INT
                        ? Integer.class
                        : p.kind() == Parameter.Kind.FLOAT ? Double.class : String.class;
                option.type(type).paramLabel(label(p)).required(p.isRequired());
            }
            spec.addOption(option.build());
        }
    }

    /**
     * The values given for {@code parameters} in {@code spec}'s parse, by scanpy's names: strings, booleans, lists of
     * strings ({@code none} alone: the empty list).
     */
    static Arguments read(CommandSpec spec, List<Parameter<?>> parameters) {
        ParseResult parsed = spec.commandLine().getParseResult();
        Map<String, Object> given = new LinkedHashMap<>();
        for (Parameter<?> p : parameters) {
            OptionSpec option = spec.findOption(name(p));
            if (parsed.hasMatchedOption(option)) {
                Object value = option.getValue();
                given.put(p.name(), List.of("none").equals(value) ? List.of() : value);
            }
        }
        return Arguments.of(given);
    }

    /**
     * Refuses a column that {@code step}'s {@code arguments} name and {@code data}, read from {@code input}, lacks:
     * the command line's mistake (exit 2), named by its option.
     */
    static void checkColumns(CatalogStep step, Arguments arguments, AnnData data, Path input) {
        for (boolean obs : new boolean[] {true, false}) {
            for (CatalogStep.ColumnArgument c : step.columns(arguments, obs)) {
                var frame = obs ? data.obs() : data.var();
                if (!frame.has(c.column())) {
                    String option = ALIASES.getOrDefault(c.parameter().name(), name(c.parameter()));
                    throw new MissingColumnException(input + ": " + option + " " + c.column() + " is not "
                            + (obs ? "an obs" : "a var") + " column (columns: "
                            + String.join(", ", frame.columns().keySet()) + ")");
                }
            }
        }
    }

    private static String label(Parameter<?> p) {
        return switch (p.kind()) {
            case INT, INT_LIST -> "N";
            case FLOAT -> "X";
            case CHOICE -> String.join("|", p.choices());
            case OBS_COLUMN, VAR_COLUMN, VAR_COLUMNS -> "COL";
            default -> "NAME";
        };
    }

    private static String description(Parameter<?> p) {
        String doc = p.doc();
        Object d = p.defaultValue();
        if (d != null && !p.isRequired()) {
            String shown = d instanceof List<?> l
                    ? (l.isEmpty() ? "none" : l.stream().map(String::valueOf).collect(Collectors.joining(",")))
                    : number(d);
            doc = (doc.endsWith(".") ? doc.substring(0, doc.length() - 1) : doc) + " (default: " + shown + ").";
        }
        String note = NOTES.get(p.name());
        return note == null ? doc : doc + " " + note;
    }

    /** A default as the description shows it: 3 for 3.0, Infinity. */
    static String number(Object v) {
        return v instanceof Double d && d == Math.rint(d) && !d.isInfinite()
                ? Long.toString(d.longValue())
                : String.valueOf(v);
    }
}
