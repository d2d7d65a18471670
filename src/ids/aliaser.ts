// ids.Aliaser: alias → ID, and each ID's aliases in insertion order. Used for chains and VMs.
export class Aliaser {
  private readonly byAlias = new Map<string, string>();
  private readonly byID = new Map<string, string[]>();

  alias(id: string, alias: string): void {
    if (this.byAlias.has(alias)) throw new Error(`alias already mapped to an ID: ${alias}`);
    this.byAlias.set(alias, id);
    const list = this.byID.get(id);
    if (list) list.push(alias);
    else this.byID.set(id, [alias]);
  }

  lookup(alias: string): string {
    const id = this.byAlias.get(alias);
    if (id === undefined) throw new Error(`there is no ID with alias: ${alias}`);
    return id;
  }

  tryLookup(alias: string): string | undefined {
    return this.byAlias.get(alias);
  }

  /** The ID's aliases in insertion order, or undefined for an unknown ID (no error). */
  aliases(id: string): string[] | undefined {
    const list = this.byID.get(id);
    return list ? [...list] : undefined;
  }

  primaryAliasOrDefault(id: string): string {
    return this.byID.get(id)?.[0] ?? id;
  }

  /** Aliases minus the ID's own string ("relevant aliases"). */
  relevantAliases(id: string): string[] {
    return (this.byID.get(id) ?? []).filter((a) => a !== id);
  }

  ids(): string[] {
    return [...this.byID.keys()];
  }
}
