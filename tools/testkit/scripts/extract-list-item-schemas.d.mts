/** Types of extract-list-item-schemas.mjs, for the testkit test that imports it. */
export declare const LIST_ITEMS: readonly string[];
export declare function specSchemaFile(revision: string): string;
export declare function pluginSchemaFile(revision: string): string;
export declare function extractListItemSchemas(schema: Record<string, unknown>): Record<string, unknown>;
export declare function listItemSchemasText(revision: string): string;
export declare function pluginRevisions(): string[];
