export const placeholder = 'profiles'
