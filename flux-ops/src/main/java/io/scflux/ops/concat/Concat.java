/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.PackedStrings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * anndata's {@code concat} along obs: cells of every input one after the other, X and the layers every input has
 * stacked lazily (a {@link ConcatSource} re-indexes each block's genes; nothing is materialized).
 *
 * <p>Genes: an inner join keeps those every input has, in the first input's order (pandas {@code intersection}); an
 * outer join takes them all, in the first input's order when every input has the same genes in the same order, else
 * sorted (pandas {@code union}). Obs columns: an inner join keeps the columns every input has (first input's order),
 * an outer join all of them (order of appearance), typed as {@link ColumnConcat} says; {@code label} then adds or
 * replaces a categorical column of each cell's key, and {@code indexUnique} appends the key to the cell names. var
 * keeps the names only ({@code merge=None}); obsm keeps the keys every input has; uns, varm, obsp, varp and raw are
 * dropped, as anndata's defaults do.
 */
public final class Concat {

    private Concat() {}

    /** The concatenation of {@code inputs} under {@code options}; X stays lazy. */
    public static AnnData concat(List<AnnData> inputs, ConcatOptions options) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("nothing to concatenate");
        }
        List<String> keys = options.keys() != null ? options.keys() : defaultKeys(inputs.size());
        if (keys.size() != inputs.size()) {
            throw new IllegalArgumentException(inputs.size() + " inputs but " + keys.size() + " keys " + keys);
        }
        int n = inputs.size();
        List<String[]> own = inputs.stream().map(a -> a.var().index()).toList();
        Frame var = new Frame(genes(own, options.join()));
        int nGenes = var.size();
        List<int[]> maps = new ArrayList<>(n);
        for (String[] names : own) {
            int[] map = new int[names.length];
            for (int c = 0; c < names.length; c++) {
                map[c] = var.positionOf(names[c]);
            }
            maps.add(map);
        }
        int[] lengths = inputs.stream().mapToInt(AnnData::nObs).toArray();

        Frame obs = FrameConcat.concat(
                inputs.stream().map(AnnData::obs).toList(),
                names(inputs, keys, options.indexUnique()),
                options.join(),
                lengths);
        if (options.label() != null) {
            obs.put(options.label(), label(keys, lengths));
        }
        boolean dense = inputs.stream().allMatch(a -> a.x() != null && a.x().isDense());
        float fill = options.fillValue() != null ? options.fillValue() : dense ? Float.NaN : 0f;
        AnnData out = new AnnData(stack(inputs, AnnData::x, maps, nGenes, fill), obs, var);
        for (String layer : FrameConcat.common(inputs, a -> a.layers().keySet())) {
            out.putLayer(
                    layer,
                    Objects.requireNonNull(
                            stack(inputs, a -> a.layers().get(layer), maps, nGenes, fill),
                            "every input has the layer"));
        }
        for (String key : FrameConcat.common(inputs, a -> a.obsm().keySet())) {
            out.putObsm(key, obsm(inputs, key, lengths, options.join()));
        }
        return out;
    }

    /** The keys anndata uses when none are given: "0", "1", ... */
    private static List<String> defaultKeys(int n) {
        List<String> k = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            k.add(Integer.toString(i));
        }
        return k;
    }

    /** The output's genes from each input's var names ({@code own}), as the class says. */
    private static String[] genes(List<String[]> own, ConcatOptions.Join join) {
        for (int i = 0; i < own.size(); i++) {
            if (new HashSet<>(Arrays.asList(own.get(i))).size() != own.get(i).length) {
                throw new IllegalArgumentException(
                        "var names of input " + i + " are not unique; concat needs " + "unique gene names");
            }
        }
        String[] first = own.get(0);
        if (join == ConcatOptions.Join.INNER) {
            Map<String, Integer> seen = new HashMap<>();
            for (String[] names : own) {
                for (String g : names) {
                    seen.merge(g, 1, Integer::sum);
                }
            }
            return Arrays.stream(first)
                    .filter(g -> Objects.requireNonNull(seen.get(g), "counted above") == own.size())
                    .toArray(String[]::new);
        }
        if (own.stream().allMatch(names -> Arrays.equals(names, first))) {
            return first;
        }
        Set<String> all = new TreeSet<>();
        own.forEach(names -> all.addAll(Arrays.asList(names)));
        return all.toArray(String[]::new);
    }

    /** Cell names one after the other, each followed by separator and its input's key when a separator is given. */
    private static PackedStrings names(List<AnnData> inputs, List<String> keys, @Nullable String separator) {
        String[] suffixes = new String[inputs.size()];
        if (separator != null) {
            Arrays.setAll(suffixes, i -> separator + keys.get(i));
        }
        return PackedStrings.concat(inputs.stream().map(a -> a.obs().names()).toList(), suffixes);
    }

    /** Each cell's key, categories in the keys' order ({@code pd.Categorical.from_codes}). */
    private static Column label(List<String> keys, int[] lengths) {
        int[] codes = new int[Arrays.stream(lengths).sum()];
        int at = 0;
        for (int i = 0; i < lengths.length; i++) {
            Arrays.fill(codes, at, at + lengths[i], i);
            at += lengths[i];
        }
        return new CategoricalColumn(
                DenseArray.of(keys.toArray(String[]::new)),
                codes,
                false,
                CategoricalColumn.smallestCodeType(keys.size()));
    }

    private static @Nullable BlockSource stack(
            List<AnnData> inputs, Function<AnnData, BlockSource> matrix, List<int[]> maps, int nCols, float fill) {
        List<BlockSource> parts = inputs.stream().map(matrix).toList();
        if (parts.stream().allMatch(p -> p == null)) {
            return null;
        }
        if (parts.stream().anyMatch(p -> p == null)) {
            throw new IllegalArgumentException("some inputs have X and some do not");
        }
        return ConcatSource.of(parts, maps, nCols, fill);
    }

    /** An obsm entry stacked by rows: arrays as numpy stacks them, sparse matrices lazily, frames as obs is. */
    private static Object obsm(List<AnnData> inputs, String key, int[] lengths, ConcatOptions.Join join) {
        List<Object> parts = inputs.stream().map(a -> a.obsm().get(key)).toList();
        Class<?> kind = parts.get(0) instanceof DenseArray
                ? DenseArray.class
                : parts.get(0) instanceof Frame ? Frame.class : BlockSource.class;
        for (int i = 0; i < parts.size(); i++) {
            if (!kind.isInstance(parts.get(i))) {
                throw new IllegalArgumentException(
                        "obsm['" + key + "'] of input " + i + " is not a " + kind.getSimpleName() + " as in input 0");
            }
        }
        if (kind == DenseArray.class) {
            List<DenseArray> arrays = parts.stream().map(DenseArray.class::cast).toList();
            return Stack.rows(Stack.type(arrays), arrays, lengths);
        }
        if (kind == Frame.class) {
            List<Frame> frames = parts.stream().map(Frame.class::cast).toList();
            PackedStrings index =
                    PackedStrings.concat(frames.stream().map(Frame::names).toList());
            return FrameConcat.concat(frames, index, join, lengths);
        }
        return ConcatSource.of(parts.stream().map(BlockSource.class::cast).toList());
    }
}
