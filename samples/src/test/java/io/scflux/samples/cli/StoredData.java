/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.bytedeco.hdf5.global.hdf5.H5Dclose;
import static org.bytedeco.hdf5.global.hdf5.H5Dcreate2;
import static org.bytedeco.hdf5.global.hdf5.H5Dget_space;
import static org.bytedeco.hdf5.global.hdf5.H5Dget_type;
import static org.bytedeco.hdf5.global.hdf5.H5Dopen2;
import static org.bytedeco.hdf5.global.hdf5.H5Dread;
import static org.bytedeco.hdf5.global.hdf5.H5Dwrite;
import static org.bytedeco.hdf5.global.hdf5.H5F_ACC_RDONLY;
import static org.bytedeco.hdf5.global.hdf5.H5F_ACC_RDWR;
import static org.bytedeco.hdf5.global.hdf5.H5Fclose;
import static org.bytedeco.hdf5.global.hdf5.H5Fopen;
import static org.bytedeco.hdf5.global.hdf5.H5Ldelete;
import static org.bytedeco.hdf5.global.hdf5.H5P_DEFAULT;
import static org.bytedeco.hdf5.global.hdf5.H5S_ALL;
import static org.bytedeco.hdf5.global.hdf5.H5Sclose;
import static org.bytedeco.hdf5.global.hdf5.H5Screate_simple;
import static org.bytedeco.hdf5.global.hdf5.H5Sget_simple_extent_npoints;
import static org.bytedeco.hdf5.global.hdf5.H5T_FLOAT;
import static org.bytedeco.hdf5.global.hdf5.H5T_IEEE_F64LE_g;
import static org.bytedeco.hdf5.global.hdf5.H5T_SGN_NONE;
import static org.bytedeco.hdf5.global.hdf5.H5T_STD_I32LE_g;
import static org.bytedeco.hdf5.global.hdf5.H5T_STD_I64LE_g;
import static org.bytedeco.hdf5.global.hdf5.H5T_STD_U32LE_g;
import static org.bytedeco.hdf5.global.hdf5.H5T_STD_U64LE_g;
import static org.bytedeco.hdf5.global.hdf5.H5Tclose;
import static org.bytedeco.hdf5.global.hdf5.H5Tget_class;
import static org.bytedeco.hdf5.global.hdf5.H5Tget_sign;
import static org.bytedeco.hdf5.global.hdf5.H5Tget_size;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.LongPointer;

/**
 * A numeric dataset of an HDF5 file read and written through the HDF5 library itself, not scflux's reader or
 * writer: how a test puts values of a chosen dtype into a file, and reads back exactly what a command stored.
 */
final class StoredData {

    private StoredData() {}

    /**
     * Replaces the dataset {@code path} of {@code file} with {@code values} stored as {@code numpyType} (int32, uint32,
     * int64, uint64 or float64; the integers given as longs, uint64 as their bits).
     */
    static void replace(Path file, String path, String numpyType, long[] longs, double[] doubles) {
        long f = H5Fopen(file.toString(), H5F_ACC_RDWR, H5P_DEFAULT);
        assertTrue(f >= 0, file.toString());
        try {
            assertTrue(H5Ldelete(f, path, H5P_DEFAULT) >= 0, path);
            int n = doubles != null ? doubles.length : longs.length;
            long space = H5Screate_simple(1, new long[] {n}, null);
            long type = switch (numpyType) {
                case "int32" -> H5T_STD_I32LE_g();
                case "uint32" -> H5T_STD_U32LE_g();
                case "int64" -> H5T_STD_I64LE_g();
                case "uint64" -> H5T_STD_U64LE_g();
                default -> H5T_IEEE_F64LE_g();
            };
            long d = H5Dcreate2(f, path, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
            assertTrue(d >= 0, path);
            if (doubles != null) {
                try (DoublePointer p = new DoublePointer(doubles)) {
                    assertTrue(H5Dwrite(d, H5T_IEEE_F64LE_g(), H5S_ALL, H5S_ALL, H5P_DEFAULT, p) >= 0);
                }
            } else {
                long mem = numpyType.equals("uint64") ? H5T_STD_U64LE_g() : H5T_STD_I64LE_g();
                try (LongPointer p = new LongPointer(longs)) {
                    assertTrue(H5Dwrite(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) >= 0);
                }
            }
            H5Dclose(d);
            H5Sclose(space);
        } finally {
            H5Fclose(f);
        }
    }

    /** The numpy name of the dataset's type (int32, uint64, float64...). */
    static String dtype(Path file, String path) {
        long f = H5Fopen(file.toString(), H5F_ACC_RDONLY, H5P_DEFAULT);
        assertTrue(f >= 0, file.toString());
        try {
            long d = H5Dopen2(f, path, H5P_DEFAULT);
            assertTrue(d >= 0, path);
            long t = H5Dget_type(d);
            try {
                long bits = 8 * H5Tget_size(t);
                if (H5Tget_class(t) == H5T_FLOAT) {
                    return "float" + bits;
                }
                return (H5Tget_sign(t) == H5T_SGN_NONE ? "uint" : "int") + bits;
            } finally {
                H5Tclose(t);
                H5Dclose(d);
            }
        } finally {
            H5Fclose(f);
        }
    }

    /** The dataset's integers as longs (uint64 as their bits). */
    static long[] longs(Path file, String path) {
        String type = dtype(file, path);
        long[] out = new long[length(file, path)];
        read(
                file,
                path,
                type.equals("uint64") ? H5T_STD_U64LE_g() : H5T_STD_I64LE_g(),
                new LongPointer(out.length),
                p -> ((LongPointer) p).get(out));
        return out;
    }

    /** The dataset's values as doubles. */
    static double[] doubles(Path file, String path) {
        double[] out = new double[length(file, path)];
        read(file, path, H5T_IEEE_F64LE_g(), new DoublePointer(out.length), p -> ((DoublePointer) p).get(out));
        return out;
    }

    private static int length(Path file, String path) {
        long f = H5Fopen(file.toString(), H5F_ACC_RDONLY, H5P_DEFAULT);
        try {
            long d = H5Dopen2(f, path, H5P_DEFAULT);
            long s = H5Dget_space(d);
            try {
                return Math.toIntExact(H5Sget_simple_extent_npoints(s));
            } finally {
                H5Sclose(s);
                H5Dclose(d);
            }
        } finally {
            H5Fclose(f);
        }
    }

    private static void read(
            Path file,
            String path,
            long memType,
            org.bytedeco.javacpp.Pointer buffer,
            java.util.function.Consumer<org.bytedeco.javacpp.Pointer> take) {
        long f = H5Fopen(file.toString(), H5F_ACC_RDONLY, H5P_DEFAULT);
        assertTrue(f >= 0, file.toString());
        try (buffer) {
            long d = H5Dopen2(f, path, H5P_DEFAULT);
            assertTrue(d >= 0, path);
            try {
                assertTrue(H5Dread(d, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer) >= 0, path);
                take.accept(buffer);
            } finally {
                H5Dclose(d);
            }
        } finally {
            H5Fclose(f);
        }
    }
}
