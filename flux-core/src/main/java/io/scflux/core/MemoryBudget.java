package io.scflux.core;

/**
 * The memory scflux allows itself for one array it is asked to hold (metadata, accumulators, a block): half the
 * JVM's maximum heap (reading one often takes a second copy of its bytes), or {@code -Dscflux.memory.budget.mb}. A size declared by a file or asked by an operator beyond it is
 * refused before anything is allocated, with a message saying what and how much, instead of an OutOfMemoryError.
 */
public final class MemoryBudget {

    private MemoryBudget() {
    }

    /** The budget in bytes. */
    public static long bytes() {
        long configured = Long.getLong("scflux.memory.budget.mb", -1);
        return configured > 0 ? configured << 20 : Runtime.getRuntime().maxMemory() / 2;
    }

    /**
     * Checks that {@code count} elements of {@code elementBytes} bytes each fit the budget; {@code what} names them
     * (with file and HDF5 path when a file declared them). Returns the count as an int, the most a Java array holds.
     */
    public static int require(long count, int elementBytes, String what) {
        long bytes;
        try {
            bytes = Math.multiplyExact(Math.max(0, count), (long) elementBytes);
        } catch (ArithmeticException e) {
            bytes = Long.MAX_VALUE;
        }
        long budget = bytes();
        if (count < 0 || bytes > budget || count > Integer.MAX_VALUE - 8) {
            throw new MemoryBudgetExceededException(what + " would need " + size(bytes) + " (" + count
                    + " elements) in one array, more than the memory budget of " + size(budget)
                    + " (java -Xmx or -Dscflux.memory.budget.mb); refusing it before allocating");
        }
        return (int) count;
    }

    /** The product of {@code dims}, or {@link Long#MAX_VALUE} when it overflows or a dimension is negative. */
    public static long product(long... dims) {
        long n = 1;
        for (long d : dims) {
            if (d < 0) {
                return Long.MAX_VALUE;
            }
            try {
                n = Math.multiplyExact(n, d);
            } catch (ArithmeticException e) {
                return Long.MAX_VALUE;
            }
        }
        return n;
    }

    private static String size(long bytes) {
        return bytes == Long.MAX_VALUE ? "more than 8 EiB" : String.format(java.util.Locale.ROOT, "%.1f MiB",
                bytes / 1048576.0);
    }
}
