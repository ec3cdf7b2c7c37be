/** A member name as one segment of a JSON Pointer (RFC 6901): "~" and "/" are written "~0" and "~1". */
export const pointerSegment = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');
