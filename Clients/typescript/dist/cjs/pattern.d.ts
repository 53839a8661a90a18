/** Substitution variables by name: each value is an alternative the variable stands for. */
export declare type SubstitutionVariables = Readonly<Record<string, readonly string[]>>;
/** A compiled pattern, ready to test subjects against. */
export declare class Pattern {
    private readonly caseSensitive;
    private readonly tokens;
    /**
     * Compiles `source`. With `caseSensitive` false both the pattern (variable values included, variable
     * names not) and every subject are lower-cased, so `$(upper)` then also accepts `q`.
     */
    constructor(source: string, variables: SubstitutionVariables, caseSensitive: boolean);
    /** True when the whole of `subject` matches the pattern. */
    matches(subject: string): boolean;
}
