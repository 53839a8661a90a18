/** The server a client talks to when nothing names one. */
export declare const DEFAULT_SERVER = "http://127.0.0.1:8080";
/** `$ROUTEREG_CONFIG`, else `$XDG_CONFIG_HOME/routereg/config.json`, else `$HOME/.config/routereg/config.json`. */
export declare function configPath(env: Record<string, string | undefined>): string | undefined;
/** The config file's non-empty `server` and `token`; none when there is no file, an Error when it is malformed. */
export declare function readConfig(env: Record<string, string | undefined>): {
    server?: string;
    token?: string;
};
/** `server` and `token`: the environment first, then the config file, then the default server. */
export declare function resolveSettings(env: Record<string, string | undefined>): {
    server: string;
    token?: string;
};
