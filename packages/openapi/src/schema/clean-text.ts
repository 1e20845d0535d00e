// What a document says about its operations reaches clients and models without control
// characters (escape sequences, BEL, NUL, C1 controls, carriage returns): a document is written
// by someone else. Line breaks and tabs stay.

const controls = /\u001b\[[0-?]*[ -/]*[@-~]|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

export function cleanText(text: string): string {
  return text.replace(controls, '')
}
