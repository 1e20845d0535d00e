export const placeholder = 'schema'
