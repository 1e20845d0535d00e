export const placeholder = 'client'
