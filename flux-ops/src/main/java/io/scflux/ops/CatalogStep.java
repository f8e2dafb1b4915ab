/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * One step of the {@link StepCatalog}: scanpy's function name, the command line's name for it, its parameters (those
 * its options record declares) and the one call that runs it, so that every front end binds a step the same way.
 */
public final class CatalogStep {

    /** The step's call, as {@link Pp} makes it, with options of type {@code O}. */
    @FunctionalInterface
    interface Kernel<O> {
        Mono<AnnData> apply(AnnData data, O options, Streaming streaming);
    }

    /** The call of a step that combines containers (anndata's concat), with options of type {@code O}. */
    @FunctionalInterface
    interface CombiningKernel<O> {
        AnnData apply(List<AnnData> inputs, O options);
    }

    /** A step bound to its checked options: a cold Mono per container, as the {@link Pp} call it makes. */
    public interface Bound extends BiFunction<AnnData, Streaming, Mono<AnnData>> {}

    /**
     * A combining step bound to its checked options: the one container its inputs make, in order, built from their
     * annotations (their X is read when the result's is).
     */
    public interface Combined extends Function<List<AnnData>, AnnData> {}

    private final String function;
    private final String command;
    private final String doc;
    private final List<Parameter<?>> parameters;
    private final @Nullable Function<Arguments, Bound> bind;
    private final @Nullable Function<Arguments, Combined> combine;
    private final Function<Arguments, List<String>> addsObs;
    private final Function<Arguments, List<String>> addsVar;

    private CatalogStep(
            String function,
            String command,
            String doc,
            List<Parameter<?>> parameters,
            @Nullable Function<Arguments, Bound> bind,
            @Nullable Function<Arguments, Combined> combine,
            Function<Arguments, List<String>> addsObs,
            Function<Arguments, List<String>> addsVar) {
        this.function = function;
        this.command = command;
        this.doc = doc;
        this.parameters = List.copyOf(parameters);
        this.bind = bind;
        this.combine = combine;
        this.addsObs = addsObs;
        this.addsVar = addsVar;
    }

    /** The step {@code function} whose options {@code options} makes from the arguments and {@code kernel} runs. */
    static <O> CatalogStep of(
            String function,
            String command,
            String doc,
            List<Parameter<?>> parameters,
            Function<Arguments, O> options,
            Kernel<O> kernel) {
        Function<Arguments, Bound> bind =
                withOptions(options, chosen -> (data, streaming) -> kernel.apply(data, chosen, streaming));
        return new CatalogStep(function, command, doc, parameters, bind, null, a -> List.of(), a -> List.of());
    }

    /**
     * The step {@code function} that makes one container of several, whose options {@code options} makes from the
     * arguments and {@code kernel} combines them with.
     */
    static <O> CatalogStep combining(
            String function,
            String command,
            String doc,
            List<Parameter<?>> parameters,
            Function<Arguments, O> options,
            CombiningKernel<O> kernel) {
        Function<Arguments, Combined> combine = withOptions(options, chosen -> inputs -> kernel.apply(inputs, chosen));
        return new CatalogStep(function, command, doc, parameters, null, combine, a -> List.of(), a -> List.of());
    }

    /** The call {@code call} makes with the options {@code options} makes of the arguments, once per binding. */
    private static <O, R> Function<Arguments, R> withOptions(Function<Arguments, O> options, Function<O, R> call) {
        return arguments -> call.apply(Objects.requireNonNull(options.apply(arguments)));
    }

    /** This step, declaring the obs columns ({@code obs}) and var columns ({@code var}) it adds, for later steps. */
    CatalogStep adding(Function<Arguments, List<String>> obs, Function<Arguments, List<String>> var) {
        return new CatalogStep(function, command, doc, parameters, bind, combine, obs, var);
    }

    /**
     * @return whether this step makes one container of several (anndata's concat): a front end gives it its inputs
     *     through {@link #combine}, and it comes first; every other step is {@link #bind}'s, on one container
     */
    public boolean combines() {
        return combine != null;
    }

    /** @return scanpy's (decoupler's) function name: {@code highly_variable_genes}, {@code pseudobulk}... */
    public String function() {
        return function;
    }

    /** @return the command line's name: {@code hvg}, {@code filter-cells}... */
    public String command() {
        return command;
    }

    /** @return what the step does, one line */
    public String doc() {
        return doc;
    }

    /** @return its parameters, in scanpy's order */
    public List<Parameter<?>> parameters() {
        return parameters;
    }

    /**
     * @param name scanpy's name of a parameter
     * @return that parameter of this step, or null when it has none of that name
     */
    public @Nullable Parameter<?> parameter(String name) {
        for (Parameter<?> p : parameters) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    /**
     * This step with its options made from {@code arguments}, which are checked now, before any data is read.
     *
     * @param arguments values by scanpy's names
     * @return the step to apply
     * @throws InvalidParameterException naming a value refused, or a name that is no parameter of this step
     * @throws IllegalStateException       for a step that {@link #combines}
     */
    public Bound bind(Arguments arguments) {
        if (bind == null) {
            throw new IllegalStateException(function + " combines several containers: see combine");
        }
        arguments.requireKnown(function, parameters);
        return bind.apply(arguments);
    }

    /**
     * This combining step with its options made from {@code arguments}, which are checked now, before any data is
     * read.
     *
     * @param arguments values by scanpy's names
     * @return the step to apply to its inputs
     * @throws InvalidParameterException naming a value refused, or a name that is no parameter of this step
     * @throws IllegalStateException       for a step that does not {@link #combines combine}
     */
    public Combined combine(Arguments arguments) {
        if (combine == null) {
            throw new IllegalStateException(function + " applies to one container: see bind");
        }
        arguments.requireKnown(function, parameters);
        return combine.apply(arguments);
    }

    /**
     * The columns the arguments name, for a front end to check against its input before running.
     *
     * @param arguments values by scanpy's names
     * @param obs       true for the obs columns named, false for the var columns
     * @return the columns named, with the parameter naming each, in the parameters' order
     */
    public List<ColumnArgument> columns(Arguments arguments, boolean obs) {
        List<ColumnArgument> out = new ArrayList<>();
        for (Parameter<?> p : parameters) {
            boolean onObs = p.kind() == Parameter.Kind.OBS_COLUMN;
            if (!p.namesColumns() || onObs != obs || !arguments.has(p)) {
                continue;
            }
            Object value = arguments.get(p);
            List<?> names = value instanceof List<?> l ? l : List.of(value);
            names.forEach(n -> out.add(new ColumnArgument(p, (String) n)));
        }
        return out;
    }

    /**
     * @param arguments values by scanpy's names
     * @param obs       true for obs, false for var
     * @return columns this step adds there that a later step may name (hvg's highly_variable, normalize's key_added)
     */
    public List<String> adds(Arguments arguments, boolean obs) {
        return (obs ? addsObs : addsVar).apply(arguments);
    }

    /**
     * A column an argument names.
     *
     * @param parameter the parameter naming it
     * @param column    the column's name
     */
    public record ColumnArgument(Parameter<?> parameter, String column) {}

    @Override
    public String toString() {
        return function;
    }
}
