/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.umap;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.parameter.Parameter;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of {@link Umap#umap}, as scanpy's {@code sc.tl.umap(min_dist, spread, n_components, maxiter,
 * alpha, gamma, negative_sample_rate, init_pos, random_state, a, b, key_added, neighbors_key)}.
 *
 * @param minDist            how close points may come in the map
 * @param spread             the scale of the map's distances
 * @param nComponents        the map's dimensions
 * @param maxiter            the epochs, or null for scanpy's (500 up to 10,000 cells, else 200)
 * @param alpha              the initial learning rate
 * @param gamma              the weight of the repulsion
 * @param negativeSampleRate negative samples per positive one
 * @param initPos            {@code spectral}, {@code random}, or an obsm key whose first columns start the layout
 * @param randomState        the seed: the map depends on it and on the graph only
 * @param a                  the curve's {@code a}, or null to fit it from {@code minDist} and {@code spread}
 * @param b                  the curve's {@code b}, likewise
 * @param keyAdded           the obsm key of the map (and uns key), or null for {@code X_umap} (and {@code umap})
 * @param neighborsKey       the uns key whose {@code connectivities_key} names the graph, or null for neighbors
 */
public record UmapOptions(
        double minDist,
        double spread,
        int nComponents,
        @Nullable Integer maxiter,
        double alpha,
        double gamma,
        int negativeSampleRate,
        String initPos,
        int randomState,
        @Nullable Double a,
        @Nullable Double b,
        @Nullable String keyAdded,
        @Nullable String neighborsKey) {

    /** scanpy's {@code min_dist}. */
    public static final Parameter<Double> MIN_DIST = Parameter.number(
                    "min_dist", 0.5, "How close points may come in the map.")
            .atLeast(0);

    /** scanpy's {@code spread}. */
    public static final Parameter<Double> SPREAD =
            Parameter.number("spread", 1.0, "The scale of the map's distances.").above(0);

    /** scanpy's {@code n_components}. */
    public static final Parameter<Integer> N_COMPONENTS =
            Parameter.integer("n_components", 2, "The map's dimensions.").atLeast(1);

    /** scanpy's {@code maxiter}. */
    public static final Parameter<Integer> MAXITER = Parameter.integer(
                    "maxiter", null, "Epochs of the optimization (default: 500 up to 10,000 cells, else 200).")
            .atLeast(1);

    /** scanpy's {@code alpha}. */
    public static final Parameter<Double> ALPHA =
            Parameter.number("alpha", 1.0, "The initial learning rate.").above(0);

    /** scanpy's {@code gamma}. */
    public static final Parameter<Double> GAMMA = Parameter.number(
                    "gamma", 1.0, "The weight of the repulsion of negative samples.")
            .atLeast(0);

    /** scanpy's {@code negative_sample_rate}. */
    public static final Parameter<Integer> NEGATIVE_SAMPLE_RATE = Parameter.integer(
                    "negative_sample_rate", 5, "Negative samples per positive one.")
            .atLeast(0);

    /** scanpy's {@code init_pos}. */
    public static final Parameter<String> INIT_POS = Parameter.text(
            "init_pos", "spectral", "Start from the graph's spectral layout, random points, or an obsm key.");

    /** scanpy's {@code random_state}. */
    public static final Parameter<Integer> RANDOM_STATE = Parameter.integer(
                    "random_state", 0, "The seed: the map depends on it and on the graph only.")
            .atLeast(0);

    /** scanpy's {@code a}. */
    public static final Parameter<Double> A = Parameter.number(
                    "a", null, "The curve's a (default: fitted from min_dist and spread).")
            .above(0);

    /** scanpy's {@code b}. */
    public static final Parameter<Double> B = Parameter.number(
                    "b", null, "The curve's b (default: fitted from min_dist and spread).")
            .above(0);

    /** scanpy's {@code key_added}. */
    public static final Parameter<String> KEY_ADDED =
            Parameter.text("key_added", null, "The obsm key of the map, and its uns key (default: X_umap, umap).");

    /** scanpy's {@code neighbors_key}. */
    public static final Parameter<String> NEIGHBORS_KEY = Parameter.text(
            "neighbors_key", null, "The uns key of the neighbors whose graph is laid out (default: neighbors).");

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS = List.of(
            MIN_DIST,
            SPREAD,
            N_COMPONENTS,
            MAXITER,
            ALPHA,
            GAMMA,
            NEGATIVE_SAMPLE_RATE,
            INIT_POS,
            RANDOM_STATE,
            A,
            B,
            KEY_ADDED,
            NEIGHBORS_KEY);

    private static final UmapOptions DEFAULT = from(Arguments.none());

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names
     * @return the options they give, scanpy's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static UmapOptions from(Arguments arguments) {
        return new UmapOptions(
                arguments.require(MIN_DIST),
                arguments.require(SPREAD),
                arguments.require(N_COMPONENTS),
                arguments.get(MAXITER),
                arguments.require(ALPHA),
                arguments.require(GAMMA),
                arguments.require(NEGATIVE_SAMPLE_RATE),
                arguments.require(INIT_POS),
                arguments.require(RANDOM_STATE),
                arguments.get(A),
                arguments.get(B),
                arguments.get(KEY_ADDED),
                arguments.get(NEIGHBORS_KEY));
    }

    /** @return scanpy's defaults */
    public static UmapOptions defaults() {
        return DEFAULT;
    }

    public UmapOptions {
        MIN_DIST.check(minDist);
        SPREAD.check(spread);
        N_COMPONENTS.check(nComponents);
        MAXITER.check(maxiter);
        NEGATIVE_SAMPLE_RATE.check(negativeSampleRate);
        if ((a == null) != (b == null)) {
            throw new InvalidParameterException(a == null ? A.name() : B.name(), "give both a and b, or neither");
        }
        if (initPos == null || initPos.isEmpty()) {
            throw new InvalidParameterException(INIT_POS.name(), "must not be empty");
        }
    }

    /**
     * @param seed the seed
     * @return these options with {@code random_state} {@code seed}
     */
    public UmapOptions withRandomState(int seed) {
        return new UmapOptions(
                minDist,
                spread,
                nComponents,
                maxiter,
                alpha,
                gamma,
                negativeSampleRate,
                initPos,
                seed,
                a,
                b,
                keyAdded,
                neighborsKey);
    }

    /**
     * @param epochs the epochs
     * @return these options with {@code maxiter} {@code epochs}
     */
    public UmapOptions withMaxiter(int epochs) {
        return new UmapOptions(
                minDist,
                spread,
                nComponents,
                epochs,
                alpha,
                gamma,
                negativeSampleRate,
                initPos,
                randomState,
                a,
                b,
                keyAdded,
                neighborsKey);
    }

    /**
     * @param start {@code spectral}, {@code random} or an obsm key
     * @return these options with {@code init_pos} {@code start}
     */
    public UmapOptions withInitPos(String start) {
        return new UmapOptions(
                minDist,
                spread,
                nComponents,
                maxiter,
                alpha,
                gamma,
                negativeSampleRate,
                start,
                randomState,
                a,
                b,
                keyAdded,
                neighborsKey);
    }

    /** @return the obsm key of the map */
    public String obsmKey() {
        return keyAdded == null ? "X_umap" : keyAdded;
    }

    /** @return the uns key of the parameters */
    public String unsKey() {
        return keyAdded == null ? "umap" : keyAdded;
    }
}
