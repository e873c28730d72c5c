// Model names as runs give them: a litellm-style `openai/<model>` addresses the model `<model>` on the endpoint.
export const modelName = (name: string): string => name.replace(/^openai\//, '');
