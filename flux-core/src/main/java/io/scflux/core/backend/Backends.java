package io.scflux.core.backend;

import io.scflux.core.Notices;
import java.util.ServiceLoader;
import java.util.function.Consumer;

/**
 * Chooses the backend for a run from a {@link BackendChoice}: device backends are found with
 * {@link ServiceLoader}; {@code auto} falls back to the host and says so in one line, {@code cuda} fails clearly.
 */
public final class Backends {

    private Backends() {
    }

    /** {@link #select(BackendChoice, long, Consumer)} with no cap and notices to the platform logger. */
    public static Backend select(BackendChoice choice) {
        return select(choice, Long.MAX_VALUE, Notices.toLog());
    }

    /**
     * The backend for {@code choice}, its device buffers capped at {@code capBytes}; {@code notice} receives the one
     * line that says an {@code auto} run stays on the host, and why.
     *
     * @throws IllegalStateException for {@code cuda} when no usable CUDA device is found, with the reason
     */
    public static Backend select(BackendChoice choice, long capBytes, Consumer<String> notice) {
        if (choice == BackendChoice.CPU) {
            return HostBackend.INSTANCE;
        }
        BackendProvider cuda = provider("cuda");
        String reason = cuda == null ? "flux-device is not on the classpath" : cuda.unavailableReason();
        if (reason == null) {
            return cuda.create(capBytes);
        }
        if (choice == BackendChoice.CUDA) {
            throw new IllegalStateException("--device cuda: no usable CUDA device (" + reason + ")");
        }
        notice.accept("scflux: no usable CUDA device (" + reason + "); running on the host");
        return HostBackend.INSTANCE;
    }

    private static BackendProvider provider(String name) {
        for (BackendProvider p : ServiceLoader.load(BackendProvider.class)) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }
}
