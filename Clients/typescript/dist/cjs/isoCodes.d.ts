/** ISO 639-1 language codes, lower case (184 codes). */
export declare const ISO_639_1: readonly string[];
/** ISO 3166-1 alpha-2 region codes, upper case (249 codes). */
export declare const ISO_3166_1_ALPHA2: readonly string[];
