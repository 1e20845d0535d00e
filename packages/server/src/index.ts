export const placeholder = 'server'
