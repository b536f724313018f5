/**
 * A part started after the parts that refer to it (the session asks for the relay's presence,
 * the control API for the sockets): they ask for it only once it exists.
 */
export class Later<T> {
  private value: T | undefined;

  constructor(private readonly what: string) {}

  set(value: T): T {
    this.value = value;
    return value;
  }

  /** The part; asking before it exists is a bug in the host's assembly. */
  get(): T {
    if (this.value === undefined) throw new Error(`${this.what} was asked for before it exists`);
    return this.value;
  }

  /** The part, or undefined before it exists. */
  peek(): T | undefined {
    return this.value;
  }
}
