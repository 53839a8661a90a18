package android.os;

/** Stand-in for the framework interface (compile-time only). */
public interface IBinder {}
